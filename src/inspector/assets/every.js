/* global window, document */
// "Every phone": the points picked on this phone, read at the same places on each phone of the server (placed
// by screen size, then adjustable), and exported as a TypeScript table in the shape of specs/phones.ts.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  let el;
  let rows = [];
  const names = new Map();

  const points = () =>
    PW.draft.entries
      .filter((e) => e.kind === 'pixel' && e.meta.phone === el.phone().id)
      .map((e, i) => ({ entry: e, name: names.get(e.id) || `point${i + 1}`, x: e.meta.x, y: e.meta.y }));

  function renderPoints() {
    const list = points();
    el.read.disabled = list.length === 0;
    PW.fill(el.points, list, PW.el('li', 'muted', 'No point picked on this phone yet.'), (p) => {
      const input = PW.el('input');
      input.value = p.name;
      input.spellcheck = false;
      input.setAttribute('aria-label', `Name of the point (${p.x}, ${p.y})`);
      input.addEventListener('change', () => names.set(p.entry.id, input.value.trim()));
      const li = PW.el('li');
      li.append(input, PW.el('span', 'muted', `(${p.x}, ${p.y})`));
      return li;
    });
  }

  function swatch(color) {
    const s = document.createElement('span');
    s.className = 'swatch';
    if (color) s.style.background = `#${color.slice(2)}`;
    return s;
  }

  function cell(row, point) {
    const td = document.createElement('td');
    const shown = document.createElement('div');
    // The colour read there; the inputs stay put while it is read again, so the focus does too.
    const show = () => {
      shown.replaceChildren(swatch(point.color), Object.assign(document.createElement('code'), { textContent: point.error ? 'not read' : point.color }));
      td.title = point.error || '';
    };
    let reads = 0;
    const place = document.createElement('div');
    place.className = 'place';
    for (const axis of ['x', 'y']) {
      const input = document.createElement('input');
      input.value = String(point[axis]);
      input.inputMode = 'numeric';
      input.setAttribute('aria-label', `${axis} of ${point.name} on ${row.name}`);
      input.addEventListener('change', async () => {
        point[axis] = Number(input.value);
        const seq = ++reads;
        try {
          const read = await PW.api.get('pixel', { phone: row.id, x: point.x, y: point.y });
          if (seq !== reads) return;
          point.color = read.rgb;
          delete point.error;
        } catch (error) {
          if (seq !== reads) return;
          point.error = error.message;
          delete point.color;
        }
        show();
      });
      place.append(input);
    }
    show();
    td.append(shown, place);
    return td;
  }

  function renderTable() {
    const head = document.createElement('tr');
    for (const title of ['Phone', ...(rows[0] ? rows[0].points.map((p) => p.name) : []), 'Settings']) head.append(Object.assign(document.createElement('th'), { textContent: title }));
    el.table.replaceChildren(
      head,
      ...rows.map((row) => {
        const tr = document.createElement('tr');
        tr.dataset.project = row.project;
        const who = document.createElement('th');
        who.append(Object.assign(document.createElement('div'), { textContent: row.project }));
        const small = row.screen ? `${row.screen.width}×${row.screen.height}` : '';
        who.append(Object.assign(document.createElement('div'), { className: 'muted', textContent: small }));
        tr.append(who, ...row.points.map((p) => cell(row, p)));
        const settings = document.createElement('td');
        settings.className = 'settings';
        settings.textContent = row.settings ? `${row.settings.orientation}\n${row.settings.resolution}` : 'not read';
        if (row.error) settings.title = row.error;
        tr.append(settings);
        return tr;
      }),
    );
    el.table.hidden = false;
    el.exportRow.hidden = false;
  }

  /** The rows the table can hold: every point and the settings read. */
  function tableRows() {
    return rows.filter((r) => r.settings && r.points.every((p) => p.color)).map((r) => ({ project: r.project, points: r.points.map(({ name, x, y, color }) => ({ name, x, y, color })), settings: r.settings }));
  }

  async function exportTable(file) {
    el.result.className = 'result';
    el.result.textContent = file ? 'saving…' : '';
    try {
      const left = rows.length - tableRows().length;
      const out = await PW.api.post('table', { phone: el.phone().id, rows: tableRows(), ...(file ? { file } : {}) });
      el.source.textContent = out.source;
      el.source.hidden = false;
      el.result.className = 'result ok';
      el.result.textContent = `${file ? `Saved ${out.file}. ` : ''}${left ? `${left} phone${left === 1 ? '' : 's'} left out (not read).` : ''}`;
    } catch (error) {
      el.result.className = 'result bad';
      el.result.textContent = error.message;
    }
  }

  PW.every = {
    init(elements) {
      el = elements;
      PW.draft.onChange(renderPoints);
      el.read.addEventListener('click', async () => {
        el.result.className = 'result';
        el.result.textContent = 'reading…';
        try {
          const list = points();
          rows = (await PW.api.post('every', { phone: el.phone().id, points: list.map(({ name, x, y }) => ({ name, x, y })) })).rows;
          renderTable();
          el.result.textContent = '';
        } catch (error) {
          el.result.className = 'result bad';
          el.result.textContent = error.message;
        }
      });
      el.exportButton.addEventListener('click', () => exportTable());
      el.save.addEventListener('click', () => exportTable(el.file.value.trim()));
      renderPoints();
    },
    /** The phone changed: its own points. */
    refresh: renderPoints,
  };
})();
