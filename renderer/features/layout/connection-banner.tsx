// Browser mode only: a thin banner while the WebSocket is down and reconnecting.
import { useEffect, useState, type ReactElement } from 'react';
import { onConnectionStatus, type ConnectionStatus } from '../../api';
import { Spinner } from '../../components';

export function ConnectionBanner(): ReactElement | null {
  const [status, setStatus] = useState<ConnectionStatus | null>(null);
  useEffect(() => onConnectionStatus(setStatus), []);
  if (status === null || status === 'open' || status === 'connecting') return null;
  return (
    <div className="connection-banner" role="status">
      <Spinner size={12} /> Connection lost. Reconnecting…
    </div>
  );
}
