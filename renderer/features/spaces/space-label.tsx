// Which space a view shows: a dot in the space's colour and its name. Plain text, not a landmark, so the
// regions it sits in keep their names ("Memory", "Activity", ...).
import type { CSSProperties, ReactElement } from 'react';
import { useCurrentSpace } from './use-spaces';

export function SpaceLabel({ prefix }: { prefix?: string }): ReactElement {
  const space = useCurrentSpace();
  return (
    <p className="sp-label" data-space-label="">
      <span className="sp-dot" style={{ background: space.colour }} aria-hidden="true" />
      {prefix && <span className="sp-label-prefix">{prefix}</span>}
      <span className="sp-label-name">{space.name}</span>
    </p>
  );
}

/** For an element with class "sp-marked": a bar in the space's colour at its start edge. */
export function spaceColourStyle(colour: string): CSSProperties {
  return { '--space-colour': colour } as CSSProperties;
}
