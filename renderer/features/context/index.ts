// Placeholder until the side-panel engineer lands the real Context tab (they own this folder and overwrite it).
import { createElement, type ReactElement } from 'react';

export function ContextPanel(): ReactElement {
  return createElement('section', { 'aria-label': 'Context', className: 'panel-placeholder' }, 'Coming soon.');
}
