// Where a window without a remembered place opens: centred on the primary display, which need not be the
// first of screen.getAllDisplays().
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, fitToScreens } from '../../../electron/shell/window-state.js';

const left = { x: -1920, y: 0, width: 1920, height: 1080 };
const primary = { x: 0, y: 0, width: 2560, height: 1440 };

describe('new window placement', () => {
  it('centres on the primary display even when another display is listed first', () => {
    expect(fitToScreens(DEFAULT_STATE, [left, primary], primary)).toEqual({
      x: Math.round((2560 - 1280) / 2),
      y: Math.round((1440 - 820) / 2),
      width: 1280,
      height: 820,
    });
  });

  it('recentres a window left on an unplugged screen on the primary display', () => {
    const lost = { ...DEFAULT_STATE, x: 5000, y: 100 };
    expect(fitToScreens(lost, [left, primary], primary)).toMatchObject({ x: 640, y: 310 });
  });

  it('keeps a remembered place on a secondary display that still exists', () => {
    const there = { ...DEFAULT_STATE, x: -1800, y: 50 };
    expect(fitToScreens(there, [left, primary], primary)).toMatchObject({ x: -1800, y: 50 });
  });

  it('fits a window larger than the primary display into it', () => {
    const small = { x: 0, y: 25, width: 1024, height: 743 };
    expect(fitToScreens({ ...DEFAULT_STATE, width: 1600 }, [left, small], small)).toEqual({
      x: 0,
      y: 25,
      width: 1024,
      height: 743,
    });
  });
});
