/**
 * The attachment of a phone's whole screen at a test's failure: the fixtures write it, the history links to it.
 * A module of its own, so a worker loads no more than the name at its start.
 */
export const PHONE_SCREEN = 'phone-screen.png';
