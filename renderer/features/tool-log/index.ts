// Placeholder until the side-panel engineer lands the real Activity tab (they own this folder and overwrite it).
import { createElement, type ReactElement } from 'react';

export function ActivityPanel(): ReactElement {
  return createElement('section', { 'aria-label': 'Activity', className: 'panel-placeholder' }, 'Coming soon.');
}
