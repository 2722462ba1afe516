/* global window, document */
// The page's events: the pointer on the screen (click, drag, shift-drag, taps), the arrow keys, the buttons;
// and the start: the phones, then the screen.
(function () {
  'use strict';
  const { api, view, draft, every, app } = window.PW;
  const { state } = app;
  const $ = (id) => document.getElementById(id);
  /** A press that moves less than this (page pixels) is a click, not a drag. */
  const DRAG_SLOP = 4;
  let press;

  const stage = $('stage');
  stage.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || state.pointOnly) return;
    e.preventDefault();
    stage.setPointerCapture(e.pointerId);
    const at = view.toPhone(e.clientX, e.clientY);
    const masking = state.mode === 'pick' && e.shiftKey && state.region !== undefined && app.inside(at, state.region.rect);
    press = { at, x: e.clientX, y: e.clientY, dragging: false, masking };
  });
  stage.addEventListener('pointermove', (e) => {
    const at = view.toPhone(e.clientX, e.clientY);
    state.hover = view.contains(e.clientX, e.clientY) ? at : undefined;
    $('hover').textContent = state.hover ? `${at.x}, ${at.y}` : '';
    view.magnify(state.hover || state.pick);
    if (!press || state.mode === 'act') return;
    if (!press.dragging && Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_SLOP) return;
    press.dragging = true;
    view.showDrag(app.spanOf(press.at, at), press.masking);
  });
  stage.addEventListener('pointerleave', () => {
    state.hover = undefined;
    $('hover').textContent = '';
    view.magnify(state.pick);
  });
  stage.addEventListener('pointerup', (e) => {
    if (!press) return;
    const done = press;
    press = undefined;
    view.showDrag(undefined);
    const at = view.toPhone(e.clientX, e.clientY);
    if (state.mode === 'act') {
      if (!done.dragging) app.act('tap', { x: at.x, y: at.y }, `await device.tap(${at.x}, ${at.y});`);
      return;
    }
    if (state.mode === 'template') {
      if (done.dragging) window.PW.template.save(app.spanOf(done.at, at));
      return;
    }
    if (!done.dragging) return app.pick(at);
    const span = app.spanOf(done.at, at);
    if (!done.masking) return app.setRegion(span);
    const mask = app.clip(span, state.region.rect);
    if (mask) {
      state.region.masks.push(mask);
      app.showRegion();
    }
  });
  stage.addEventListener('pointercancel', () => {
    press = undefined;
    view.showDrag(undefined);
  });

  // Arrow keys move the picked point by one phone pixel (ten with shift); the read follows once keys rest.
  let nudgeTimer;
  document.addEventListener('keydown', (e) => {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (!step || !state.pick || /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? '')) return;
    e.preventDefault();
    const n = e.shiftKey ? 10 : 1;
    const limit = state.phone.width ? { width: state.phone.width, height: state.phone.height } : { width: Infinity, height: Infinity };
    const p = { x: Math.min(limit.width - 1, Math.max(0, state.pick.x + step[0] * n)), y: Math.min(limit.height - 1, Math.max(0, state.pick.y + step[1] * n)) };
    state.pick.x = p.x;
    state.pick.y = p.y;
    view.showMarker(p);
    if (!state.pointOnly) view.reveal(p);
    $('point-facts').querySelector('.coords')?.replaceChildren(`(${p.x}, ${p.y}) …`);
    window.clearTimeout(nudgeTimer);
    nudgeTimer = window.setTimeout(() => app.pick(p, true), 120);
  });

  $('no-capture').addEventListener('submit', (e) => {
    e.preventDefault();
    const x = $('read-x').value.trim();
    const y = $('read-y').value.trim();
    if (!/^\d+$/.test(x) || !/^\d+$/.test(y)) return app.status('bad', 'x and y are whole numbers from 0');
    app.pick({ x: Number(x), y: Number(y) });
  });

  $('mode-pick').addEventListener('click', () => app.setMode('pick'));
  $('mode-act').addEventListener('click', () => app.setMode('act'));
  $('mode-template').addEventListener('click', () => app.setMode('template'));
  $('key-back').addEventListener('click', () => app.act('press', { key: 'back' }, "await device.press('back');"));
  $('key-home').addEventListener('click', () => app.act('press', { key: 'home' }, "await device.press('home');"));
  $('refresh').addEventListener('click', () => app.refresh());
  for (const b of document.querySelectorAll('#zoom button')) {
    b.addEventListener('click', () => {
      for (const o of document.querySelectorAll('#zoom button')) o.classList.toggle('on', o === b);
      view.setZoom(b.dataset.zoom === 'fit' ? 'fit' : Number(b.dataset.zoom));
      if (state.pick) view.reveal(state.pick);
    });
  }
  $('golden-name').addEventListener('input', () => state.region && app.writeRegionLine());
  // The golden's path names the spec: a refusal to write over one is forgotten when the spec changes.
  $('draft-file').addEventListener('input', () => state.region && app.writeRegionLine());
  $('write-golden').addEventListener('click', () => app.writeGolden());
  $('clear-region').addEventListener('click', () => app.clearRegion());
  for (const b of document.querySelectorAll('button.copy')) {
    b.addEventListener('click', async () => {
      const done = await draft.copy($(b.dataset.copy).textContent);
      b.textContent = done ? 'Copied' : 'Select it';
      window.setTimeout(() => (b.textContent = 'Copy'), 1500);
    });
  }
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'visible' ? app.refresh() : window.clearTimeout(state.timer)));

  view.init({ canvas: $('screen'), stage, viewport: $('viewport'), grid: $('grid'), marker: $('marker'), regionBox: $('region-box'), masks: $('masks'), texts: $('texts'), dragBox: $('drag-box'), magnifier: $('magnifier') });
  window.PW.template.init();
  draft.init({ list: $('draft-lines'), count: $('draft-count'), title: $('draft-title'), file: $('draft-file'), copy: $('draft-copy'), save: $('draft-save'), result: $('draft-result'), phone: () => state.phone });
  every.init({ points: $('every-points'), read: $('every-read'), table: $('every-table'), exportRow: $('every-export-row'), exportButton: $('every-export'), file: $('every-file'), save: $('every-save'), source: $('every-source'), result: $('every-result'), phone: () => state.phone });

  api.get('phones').then(
    (info) => {
      state.phones = info.phones;
      state.server = info.server;
      const picker = $('phone-picker');
      picker.replaceChildren(...info.phones.map((p) => Object.assign(document.createElement('option'), { value: p.id, textContent: `${p.name}${p.model ? ` · ${p.model}` : ''}` })));
      picker.value = info.selected;
      $('picker-wrap').hidden = info.phones.length < 2;
      picker.addEventListener('change', () => app.selectPhone(picker.value));
      app.selectPhone(info.selected);
    },
    (error) => app.status('bad', error.message),
  );
})();
