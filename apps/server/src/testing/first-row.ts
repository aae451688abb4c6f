/** The first row of a raw statement's answer (`db.execute`): both drivers answer `{ rows }`. */
export async function firstRow<T>(answer: Promise<unknown>): Promise<T> {
  return ((await answer) as { rows: T[] }).rows[0] as T;
}
