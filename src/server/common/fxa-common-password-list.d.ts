// fxa-common-password-list ships no types: its one function, as its README documents it.
declare module 'fxa-common-password-list' {
  /** True when `password` is on Mozilla's list of common passwords (8+ characters, lower case). */
  export function test(password: string): boolean;
  const list: { test: typeof test };
  export default list;
}
