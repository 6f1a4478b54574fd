// A sandbox's virtual clock: frozen (it moves only when advanced) or running (wall time plus an
// offset, so setting a running clock to a date keeps it ticking from there). Pure arithmetic on the
// clock's state and an injected wall clock, so the engine and the store (snapshots, checkpoints)
// share it without the store importing the engine.

import type { Clock } from './context.ts';

export interface SandboxClockState {
  frozen: boolean;
  /** The frozen instant (ms); for a running clock, the instant at which it was last set. */
  nowMs: number;
  /** Running clocks: sandbox time = wall time + offsetMs. */
  offsetMs: number;
}

export function sandboxNow(state: SandboxClockState, wall: Clock): number {
  return state.frozen ? state.nowMs : wall.now() + state.offsetMs;
}

export function sandboxClock(state: SandboxClockState, wall: Clock): Clock {
  return { now: () => sandboxNow(state, wall) };
}

/** A clock state showing `nowMs` now, frozen or running from there. */
export function clockAt(nowMs: number, frozen: boolean, wall: Clock): SandboxClockState {
  return { frozen, nowMs, offsetMs: nowMs - wall.now() };
}

/** Freezes or unfreezes without a jump: the sandbox's current instant is kept either way. */
export function setFrozen(state: SandboxClockState, frozen: boolean, wall: Clock): SandboxClockState {
  return clockAt(sandboxNow(state, wall), frozen, wall);
}

export function clockView(state: SandboxClockState, wall: Clock): { now: string; frozen: boolean } {
  return { now: new Date(sandboxNow(state, wall)).toISOString(), frozen: state.frozen };
}
