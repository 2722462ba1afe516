// The films a worker encodes after their tests (fixtures/film.ts, FilmQueue): one at a time, in the order the tests
// ended, a failure one line on stderr that names the test and stops no later film; `drained` waits for them all.
import { FilmQueue } from '../../fixtures/film.js';
import { expect, test } from '../helpers/test.js';

test('films are encoded one at a time in order; a failed one is a line on stderr and the next is still made', async () => {
  const queue = new FilmQueue();
  const log: string[] = [];
  let running = 0;
  const film = (name: string, fail = false) => async () => {
    running++;
    expect(running, `${name} began while another film was encoded`).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    running--;
    if (fail) throw new Error('the film encoder failed (exit 1): broken frame');
    log.push(name);
  };
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    queue.add('"first"', film('first'));
    queue.add('"second" (out.webm)', film('second', true));
    queue.add('"third"', film('third'));
    expect(log).toEqual([]);
    await queue.drained();
  } finally {
    process.stderr.write = write;
  }
  expect(log).toEqual(['first', 'third']);
  expect(written).toEqual(['phonewright: no film of "second" (out.webm): the film encoder failed (exit 1): broken frame\n']);
});
