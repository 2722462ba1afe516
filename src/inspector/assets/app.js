/* global window, document, createImageBitmap, setTimeout, clearTimeout */
// What the page does: the phone and its screen, picking, regions and masks, acts; input.js wires the events.
(function () {
  'use strict';
  const { api, view, lines, draft } = window.PW;
  const $ = (id) => document.getElementById(id);
  const HINTS = {
    pick: 'Click a point to read it · drag a region · shift-drag inside the region to mask a part · arrow keys move the point by one pixel',
    template: 'Template mode: drag a rectangle to save it as an image the spec looks for',
    act: 'Act mode: a click taps the phone; each tap is a line of the draft',
  };
  /** How long the screen stays before the next capture, while the page is visible. */
  const REFRESH_MS = 1000;
  const state = { phones: [], phone: undefined, mode: 'pick', pointOnly: false, pick: undefined, region: undefined, regions: 0, timer: undefined, busy: false, reads: 0, replace: undefined };

  function status(kind, text) {
    $('status').dataset.kind = kind;
    $('status-text').textContent = text;
  }

  // ---- the phone and its screen ----

  function showFacts(p, server) {
    // The project only where it is not the phone's name: the main device's `main`, a pool, a prefix.
    const parts = [['id', p.name === p.id ? '' : p.id], ['model', p.model], ['screen', p.width ? `${p.width}×${p.height}` : 'size unknown'], ['project', p.project === p.name ? '' : `project ${p.project}`]];
    $('phone-facts').replaceChildren(
      Object.assign(document.createElement('strong'), { textContent: p.name }),
      ...parts.filter(([, v]) => v).map(([k, v]) => Object.assign(document.createElement('span'), { className: 'fact', title: k, textContent: v })),
      Object.assign(document.createElement('span'), { className: 'fact server', title: 'server', textContent: `on ${server}` }),
    );
  }

  function selectPhone(id) {
    state.phone = state.phones.find((p) => p.id === id);
    showFacts(state.phone, state.server);
    clearPick();
    if (state.region && !(state.phone.width && fits(state.region.rect))) clearRegion();
    // A phone whose screen cannot be captured is told by the server's answer to the first capture.
    setPointOnly(false);
    if (state.phone.width) view.setSize(state.phone.width, state.phone.height);
    view.captured = false;
    window.PW.every.refresh();
    window.PW.texts.phoneChanged();
    window.PW.template.forgetIfMoved();
    goldenButton();
    refresh();
  }

  function setPointOnly(on, text) {
    state.pointOnly = on;
    $('stage').hidden = on;
    $('no-capture').hidden = !on;
    // The server's line, as a sentence of the page.
    const sentence = on ? `${text.charAt(0).toUpperCase()}${text.slice(1).replace(/\.?$/, '.')}` : '';
    $('no-capture-text').textContent = on ? `${sentence} Read points by their coordinates.` : '';
    $('hint').hidden = on;
    for (const b of document.querySelectorAll('#zoom button, #refresh, #mode-act, #mode-template, #show-texts')) b.disabled = on;
    if (on) {
      setMode('pick');
      status('warn', 'point reads only');
    }
  }

  async function refresh() {
    clearTimeout(state.timer);
    if (state.pointOnly || state.busy) return;
    state.busy = true;
    const phone = state.phone;
    const started = Date.now();
    try {
      const bitmap = await createImageBitmap(await api.blob('screen', { phone: phone.id }));
      if (phone !== state.phone) return;
      view.draw(bitmap);
      view.magnify(state.hover || state.pick);
      status('live', `live · ${new Date().toLocaleTimeString()} · capture ${Date.now() - started} ms`);
    } catch (error) {
      if (phone !== state.phone) return;
      if (error.status === 501) setPointOnly(true, error.message);
      else status('bad', error.message);
    } finally {
      state.busy = false;
      schedule();
    }
  }

  function schedule() {
    clearTimeout(state.timer);
    if (!state.pointOnly && document.visibilityState === 'visible') state.timer = setTimeout(refresh, REFRESH_MS);
  }

  // ---- picking a point ----

  function clearPick() {
    state.pick = undefined;
    view.showMarker(undefined);
    view.magnify(undefined);
    $('point-facts').innerHTML = '<p class="muted">Click the screen to read a point.</p>';
    $('point-code').hidden = true;
    window.PW.locator.clear();
  }

  /** Reads a point; a nudge moves the same pick, so its draft line is rewritten, not added. */
  async function pick(p, nudge) {
    const phone = state.phone;
    const entry = nudge && state.pick ? state.pick.entry : undefined;
    state.pick = { x: p.x, y: p.y, entry, useDeltaE: state.pick && nudge ? state.pick.useDeltaE : undefined };
    view.showMarker(p);
    if (!state.hover) view.magnify(p);
    $('point-facts').innerHTML = `<p class="coords">(${p.x}, ${p.y})</p><p class="muted">reading…</p>`;
    if (!state.pointOnly) window.PW.locator.suggest(phone, p);
    const seq = ++state.reads;
    try {
      const read = await api.get('pixel', { phone: phone.id, x: p.x, y: p.y });
      if (seq !== state.reads || phone !== state.phone) return;
      state.pick.read = read;
      if (state.pick.useDeltaE === undefined) state.pick.useDeltaE = false;
      if (state.pointOnly) view.magnify(p, read);
      showPoint();
    } catch (error) {
      if (seq !== state.reads) return;
      $('point-facts').innerHTML = '';
      $('point-facts').append(Object.assign(document.createElement('p'), { className: 'coords', textContent: `(${p.x}, ${p.y})` }), Object.assign(document.createElement('p'), { className: 'bad', textContent: error.message }));
    }
  }

  function pointLine() {
    const { read, useDeltaE } = state.pick;
    return lines.pixel(read, useDeltaE ? read.deltaE : undefined);
  }

  function showPoint() {
    const { read } = state.pick;
    const facts = $('point-facts');
    facts.innerHTML = '';
    const head = Object.assign(document.createElement('p'), { className: 'coords' });
    const swatch = Object.assign(document.createElement('span'), { className: 'swatch big' });
    swatch.style.background = `#${read.rgb.slice(2)}`;
    head.append(`(${read.x}, ${read.y}) `, swatch, Object.assign(document.createElement('code'), { className: 'hex', textContent: read.rgb }));
    const rgb = Object.assign(document.createElement('p'), { className: 'muted', textContent: `r ${read.r} · g ${read.g} · b ${read.b}` });
    const flat = read.spread === 0;
    const edge = !flat && (read.deltaE === null || read.deltaE === undefined);
    const spread = Object.assign(document.createElement('p'), {
      className: 'spread',
      textContent: `9×9 spread ΔE00 ${read.spread.toFixed(2)}: ${flat ? 'a flat area, the exact colour holds' : edge ? 'another colour is near; keep the exact colour, or pick inside a flat area' : `suggests deltaE ${read.deltaE}`}`,
    });
    facts.append(head, rgb, spread);
    if (!flat && !edge) {
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: state.pick.useDeltaE, id: 'use-delta-e' });
      box.addEventListener('change', () => {
        state.pick.useDeltaE = box.checked;
        writePickLine();
      });
      const lab = Object.assign(document.createElement('label'), { className: 'check' });
      lab.append(box, ` with { deltaE: ${read.deltaE} }`);
      facts.append(lab);
    }
    writePickLine();
  }

  function writePickLine() {
    const text = pointLine();
    $('point-line').textContent = text;
    $('point-code').hidden = false;
    const meta = { phone: state.phone.id, x: state.pick.read.x, y: state.pick.read.y, rgb: state.pick.read.rgb };
    if (!draft.update(state.pick.entry, text, meta)) state.pick.entry = draft.add('pixel', text, meta);
  }

  // ---- regions and masks ----

  const fits = (r) => r.x + r.width <= state.phone.width && r.y + r.height <= state.phone.height;
  const spanOf = (a, b) => ({ x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x) + 1, height: Math.abs(a.y - b.y) + 1 });
  const inside = (p, r) => p.x >= r.x && p.x < r.x + r.width && p.y >= r.y && p.y < r.y + r.height;
  const clip = (m, r) => {
    const x = Math.max(m.x, r.x);
    const y = Math.max(m.y, r.y);
    const width = Math.min(m.x + m.width, r.x + r.width) - x;
    const height = Math.min(m.y + m.height, r.y + r.height) - y;
    return width > 0 && height > 0 ? { x, y, width, height } : undefined;
  };

  function setRegion(rect) {
    state.regions += 1;
    const name = `region-${state.regions}.png`;
    $('golden-name').value = name;
    state.region = { rect, masks: [], entry: undefined };
    state.replace = undefined;
    $('golden-result').textContent = '';
    showRegion();
  }

  function clearRegion() {
    state.region = undefined;
    view.showRegion(undefined, []);
    $('region-card').hidden = true;
  }

  function showRegion() {
    const { rect, masks } = state.region;
    view.showRegion(rect, masks);
    $('region-card').hidden = false;
    const facts = $('region-facts');
    facts.replaceChildren(Object.assign(document.createElement('p'), { className: 'coords', textContent: `${rect.width}×${rect.height} at (${rect.x}, ${rect.y})` }));
    masks.forEach((m, i) => {
      const row = Object.assign(document.createElement('p'), { className: 'mask-row' });
      const remove = Object.assign(document.createElement('button'), { type: 'button', className: 'remove', textContent: '×', title: 'Remove this mask' });
      remove.addEventListener('click', () => {
        masks.splice(i, 1);
        showRegion();
      });
      row.append(`mask ${m.width}×${m.height} at (${m.x}, ${m.y}) `, remove);
      facts.append(row);
    });
    if (!masks.length) facts.append(Object.assign(document.createElement('p'), { className: 'muted', textContent: 'Shift-drag inside the region to mask a part (a clock, a cursor).' }));
    writeRegionLine();
  }

  /** What a golden written now is for: the phone, the spec and the name. */
  const goldenTarget = () => `${state.phone.id}\n${$('draft-file').value.trim()}\n${$('golden-name').value.trim()}`;

  /**
   * The write button: "Replace golden" only for the very golden the last write was refused for; a change of phone,
   * spec or name since then forgets that refusal, so no other golden is written over unasked.
   */
  function goldenButton() {
    if (state.replace !== undefined && state.replace !== goldenTarget()) {
      // The refusal was about that golden: its message goes with it.
      state.replace = undefined;
      $('golden-result').textContent = '';
    }
    $('write-golden').textContent = state.replace === undefined ? `Write golden for ${state.phone.project}` : 'Replace golden';
  }

  function writeRegionLine() {
    goldenButton();
    const name = $('golden-name').value.trim();
    const good = lines.goldenName(name);
    $('golden-name').classList.toggle('invalid', !good);
    $('write-golden').disabled = !good;
    if (!good) return;
    const { rect, masks } = state.region;
    const text = lines.region(rect, name, masks);
    $('region-line').textContent = text;
    const meta = { phone: state.phone.id, rect, masks: masks.slice(), name };
    if (!draft.update(state.region.entry, text, meta)) state.region.entry = draft.add('region', text, meta);
  }

  async function writeGolden() {
    const { rect, masks } = state.region;
    const out = $('golden-result');
    out.className = 'result';
    out.textContent = 'reading the region…';
    const target = goldenTarget();
    try {
      const body = { phone: state.phone.id, spec: $('draft-file').value.trim(), name: $('golden-name').value.trim(), rect, mask: masks, replace: state.replace === target };
      const written = await api.post('golden', body);
      out.className = 'result ok';
      out.textContent = `Wrote ${written.file} (${written.width}×${written.height}) for ${written.project}`;
      state.replace = undefined;
    } catch (error) {
      out.className = 'result bad';
      out.textContent = error.message;
      if (error.status === 409) state.replace = target;
    }
    goldenButton();
  }

  // ---- acts ----

  async function act(route, body, line) {
    try {
      await api.post(route, { phone: state.phone.id, ...body });
      draft.add(route === 'tap' ? 'tap' : 'press', line, { phone: state.phone.id, ...body });
      status('live', `${route === 'tap' ? `tapped (${body.x}, ${body.y})` : `pressed ${body.key}`}`);
      refresh();
    } catch (error) {
      status('bad', error.message);
    }
  }

  function setMode(mode) {
    state.mode = mode;
    for (const [id, m] of [['mode-pick', 'pick'], ['mode-template', 'template'], ['mode-act', 'act']]) {
      $(id).classList.toggle('on', mode === m);
      $(id).setAttribute('aria-pressed', String(mode === m));
    }
    $('act-keys').hidden = mode !== 'act';
    $('image-card').hidden = mode !== 'template';
    $('stage').classList.toggle('acting', mode === 'act');
    $('hint').textContent = HINTS[mode];
  }

  window.PW.app = { state, pick, setRegion, showRegion, clearRegion, act, refresh, writeGolden, writeRegionLine, spanOf, inside, clip, setMode, selectPhone, status, fits };
})();
