/**
 * The vendor documentation's example credentials. The embedded simulator accepts them by default so the
 * vendor's curl examples work against it verbatim; they are public, not secrets of anyone's lab.
 */
export const DEFAULT_USER = 'sigma';
export const DEFAULT_PASSWORD = '3D391497';

/** The port the device-control service listens on (interface: "It listens on port 8090"). */
export const DEFAULT_PORT = 8090;

/** The main device of the vendor's examples, and of the simulator's default scenario. */
export const EXAMPLE_MAIN_DEVICE = 'device@1116106541';
