// The shell's half of a build's journal: what a build changed in JS (messages appended,
// parts shown, texts noted, the summary), to put back when it fails. The rules keep the
// other half (`Manager::begin`, `Manager::rollback` in crates/rules/src/context/build.rs).

export class Undo {
  /** While a build is open: how to take back what changed, newest last. */
  #steps: Array<() => void> | null = null;

  open(): void {
    this.#steps = [];
  }

  /** Notes how to take back a change, when a build is open (between builds, nothing is taken back). */
  push(step: () => void): void {
    this.#steps?.push(step);
  }

  /** The build went through: nothing to take back. */
  close(): void {
    this.#steps = null;
  }

  /** Takes back every change since `open()`, newest first. */
  rollback(): void {
    const steps = this.#steps ?? [];
    for (let i = steps.length - 1; i >= 0; i--) steps[i]();
    this.#steps = null;
  }
}
