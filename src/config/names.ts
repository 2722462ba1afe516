// How the device matrix names a phone's Playwright project (and so its goldens and its history) when a run has
// several servers: each phone keeps its own name, unless two servers name phones alike. Pure: no I/O.
import { ALL_DEVICES, type ServerFileEntry } from './schema.js';

/** The embedded simulator's phones, as its scenario names them. */
export interface ScenarioNames {
  /** The scenario's main device. */
  main: string;
  phones: readonly { id: string; name: string }[];
}

/**
 * The names that two or more servers give phones (a phone's name, or its pool's): the projects of those
 * phones are qualified with their server's name, `<server>-<name>`, on every server that uses the name; every
 * other phone keeps its name, so adding a server does not rename the phones that were there.
 * @param servers each server's name and the names its phones and pools go by
 */
export function clashingNames(servers: ReadonlyMap<string, Iterable<string>>): Set<string> {
  const seen = new Map<string, string>();
  const clashes = new Set<string>();
  for (const [server, names] of servers) {
    for (const name of new Set(names)) {
      const first = seen.get(name);
      if (first === undefined) seen.set(name, server);
      else if (first !== server) clashes.add(name);
    }
  }
  return clashes;
}

/**
 * A phone's (or a pool's) name in the matrix: `<server>-<name>` when another server names a phone alike, else
 * the name itself.
 * @param clashes the names {@link clashingNames} found
 */
export function qualifiedName(server: string, name: string, clashes: ReadonlySet<string>): string {
  return clashes.has(name) ? `${server}-${name}` : name;
}

/**
 * The names a server of phonewright.config.json gives its phones, known without asking it: its listed phones'
 * names (or ids) and pools, `main` for a real server without `devices`, the scenario's names for the embedded
 * simulator. A real server's `"devices": "all"` names none here: its phones are known when the run lists them.
 * @param scenario the embedded simulator's phones, asked for only when the entry has no URL
 */
export function declaredNames(entry: ServerFileEntry, scenario: () => ScenarioNames): string[] {
  const devices = entry.devices;
  if (entry.url !== undefined) {
    if (devices === ALL_DEVICES) return [];
    return (devices ?? [{ id: 'main' as const }]).flatMap((d) => [d.name ?? d.id, ...(d.pool ? [d.pool] : [])]);
  }
  // The simulator names its phones after the scenario, whatever the file calls them.
  const { main, phones } = scenario();
  if (devices === undefined || devices === ALL_DEVICES) return phones.map((p) => p.name);
  return devices.flatMap((d) => {
    const phone = phones.find((p) => p.id === d.id || (d.id === 'main' && p.id === main));
    return [...(phone ? [phone.name] : []), ...(d.pool ? [d.pool] : [])];
  });
}
