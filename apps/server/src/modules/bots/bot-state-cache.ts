type State = Record<string, unknown> | null;

/** A bot row as the dashboard lists it: no engine state yet, but the version of the stored one. */
export interface VersionedRow {
  id: string;
  stateVersion: number;
}

/** A stored engine state as the database answered it. */
export interface LoadedState {
  id: string;
  stateVersion: number;
  engineState: State;
}

/**
 * Parsed engine states by bot id and `state_version` (bumped by every write of `engine_state`). The dashboard
 * polls list the user's bots without their states, and fetch only the states whose version changed since
 * this process last read them: a bot that did not trade is not read or parsed again. Never stale: a newer
 * version always misses. The states are shared between requests and must not be modified.
 */
export class BotStateCache {
  private readonly states = new Map<string, { version: number; state: State }>();

  constructor(private readonly maxEntries = 200_000) {}

  /** The rows with their engine states; `load` reads the states of the given bot ids (only the missing). */
  async withStates<T extends VersionedRow>(
    rows: readonly T[],
    load: (ids: string[]) => Promise<LoadedState[]>,
  ): Promise<Array<T & { engineState: State }>> {
    const missing = rows.filter((row) => this.states.get(row.id)?.version !== row.stateVersion);
    const loaded = new Map<string, LoadedState>();
    if (missing.length > 0) {
      for (const state of await load(missing.map((row) => row.id))) {
        loaded.set(state.id, state);
        const known = this.states.get(state.id);
        if (!known || known.version <= state.stateVersion) this.remember(state);
      }
    }
    const out: Array<T & { engineState: State }> = [];
    for (const row of rows) {
      const fresh = loaded.get(row.id);
      if (fresh) out.push({ ...row, stateVersion: fresh.stateVersion, engineState: fresh.engineState });
      else {
        const known = this.states.get(row.id);
        // Neither cached nor loaded: the bot was deleted between the two reads.
        if (known?.version === row.stateVersion) out.push({ ...row, engineState: known.state });
      }
    }
    return out;
  }

  get size(): number {
    return this.states.size;
  }

  private remember(state: LoadedState) {
    this.states.delete(state.id);
    this.states.set(state.id, { version: state.stateVersion, state: state.engineState });
    if (this.states.size > this.maxEntries) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.states.delete(oldest);
    }
  }
}
