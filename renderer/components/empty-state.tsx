import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from './icons';
import './components.css';

/** A calm placeholder for an empty list or panel: an icon, a title, a line of help, optional actions. */
export function EmptyState({
  icon,
  title,
  children,
  actions,
}: {
  icon?: IconName;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}): ReactElement {
  return (
    <div className="empty-state">
      {icon && (
        <span className="empty-state-icon">
          <Icon name={icon} size={22} />
        </span>
      )}
      <p className="empty-state-title">{title}</p>
      {children && <div className="empty-state-body">{children}</div>}
      {actions && <div className="empty-state-actions">{actions}</div>}
    </div>
  );
}
