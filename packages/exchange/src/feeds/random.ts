/** Seeded random numbers for the simulated market: reproducible runs, no `Math.random`. */
export class Random {
  private state: number;
  private spare: number | undefined;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1) (mulberry32). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal (Box–Muller, both values used). */
  normal(): number {
    if (this.spare !== undefined) {
      const value = this.spare;
      this.spare = undefined;
      return value;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /**
   * Student-t with `dof` degrees of freedom, scaled to unit variance (needs dof > 2). Crypto returns
   * have fat tails: with dof 4 a 5-sigma second is far likelier than under a normal.
   */
  studentT(dof: number): number {
    let chi2 = 0;
    for (let i = 0; i < dof; i += 1) {
      const z = this.normal();
      chi2 += z * z;
    }
    return (this.normal() / Math.sqrt(chi2 / dof)) * Math.sqrt((dof - 2) / dof);
  }
}

/** A 32-bit seed from a base seed and a label (FNV-1a), so each pair/interval has its own stream. */
export function deriveSeed(seed: number, label: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i += 1) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
