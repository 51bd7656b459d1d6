export declare namespace SlidingRelevanceWindow {
  /** `true` on turn counts 10, 20, 30…: when the specs are due again. Same as the instance method. */
  function shouldInjectSpec(turnCount: number): boolean;
}
