/* global window, document, navigator */
// The draft: every line the page makes, in order, as the body of one test; copied, or saved as a spec.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  let el;
  let entries = [];
  let next = 1;
  const listeners = [];

  const changed = () => {
    render();
    listeners.forEach((f) => f(entries));
  };

  function render() {
    el.count.textContent = String(entries.length);
    PW.fill(el.list, entries, PW.el('li', 'empty', 'Lines appear here as you pick points, drag regions and tap.'), (e, i) => {
      const remove = PW.el('button', 'remove', '×');
      remove.type = 'button';
      remove.title = 'Remove this line';
      remove.setAttribute('aria-label', `Remove line ${i + 1}`);
      remove.addEventListener('click', () => PW.draft.remove(e));
      const li = PW.el('li');
      li.dataset.kind = e.kind;
      li.append(PW.el('code', '', e.text), remove);
      return li;
    });
    if (entries.length) el.list.lastElementChild.scrollIntoView({ block: 'nearest' });
  }

  /** Copies a text: the clipboard where the page may write it, else through a selection. */
  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      const done = document.execCommand('copy');
      area.remove();
      return done;
    }
  }

  async function save() {
    el.result.className = 'result';
    el.result.textContent = 'saving…';
    try {
      const saved = await PW.api.post('spec', { spec: el.file.value.trim(), title: el.title.value, lines: entries.map((e) => e.text) });
      el.result.className = 'result ok';
      el.result.textContent = `Saved ${saved.file}: npx phonewright test ${saved.file}`;
    } catch (error) {
      el.result.className = 'result bad';
      el.result.textContent = error.message;
    }
  }

  PW.draft = {
    copy,
    init(elements) {
      el = elements;
      el.copy.addEventListener('click', async () => {
        const done = await copy(entries.map((e) => e.text).join('\n'));
        el.result.className = done ? 'result ok' : 'result bad';
        el.result.textContent = done ? `Copied ${entries.length} line${entries.length === 1 ? '' : 's'}.` : 'The browser refused to copy: select the lines by hand.';
      });
      el.save.addEventListener('click', save);
      render();
    },
    /** Adds a line; `meta` is what made it (kind, phone, point…). */
    add(kind, text, meta) {
      const entry = { id: next++, kind, text, meta };
      entries.push(entry);
      changed();
      return entry;
    },
    /** Rewrites a line in place (a point nudged, a region masked); false when it was removed. */
    update(entry, text, meta) {
      if (!entry || !entries.includes(entry)) return false;
      entry.text = text;
      entry.meta = meta;
      changed();
      return true;
    },
    remove(entry) {
      entries = entries.filter((e) => e !== entry);
      changed();
    },
    has: (entry) => entries.includes(entry),
    get entries() {
      return entries;
    },
    onChange: (f) => listeners.push(f),
  };
})();
