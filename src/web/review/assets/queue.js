/* global window, document */
// The queue: every failure, grouped by test, then by phone, each with its state. Reviewed ones (accepted or
// rejected) leave it unless "Show reviewed" is on; j and k walk the failures shown.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  const root = document.getElementById('queue');
  const empty = document.getElementById('queue-empty');

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /** `pending`, `stale`, `accepted`, `rejected`: what a failure's pill says. */
  function stateOf(item) {
    if (item.decision) return item.decision.verdict;
    return !item.accept.ok && item.accept.stale ? 'stale' : 'pending';
  }

  function pillText(item) {
    const state = stateOf(item);
    if (state === 'rejected' && item.decision.earlier) return 'rejected before';
    return state === 'pending' ? 'to review' : state;
  }

  /** The test's title without its file, and the file. */
  function split(test) {
    const at = test.indexOf(' › ');
    return at < 0 ? { title: test, file: '' } : { title: test.slice(at + 3), file: test.slice(0, at) };
  }

  let items = [];
  let showReviewed = false;
  let current;
  let onPick = () => {};

  function render() {
    const frag = document.createDocumentFragment();
    const groups = new Map();
    for (const item of items) {
      if (item.decision && !showReviewed && item.id !== current) continue;
      let g = groups.get(item.test);
      if (!g) groups.set(item.test, (g = new Map()));
      const phone = g.get(item.project) || [];
      phone.push(item);
      g.set(item.project, phone);
    }
    for (const [test, phones] of groups) {
      const group = el('section', 'group');
      group.dataset.test = test;
      const { title, file } = split(test);
      const h = el('h3', '', title);
      h.append(el('span', 'file', file));
      group.append(h);
      for (const [project, list] of phones) {
        const phone = el('div', 'phone');
        phone.dataset.project = project;
        const head = el('h4', '', project);
        if (list[0].model) head.append(el('span', 'model', list[0].model));
        phone.append(head);
        for (const item of list) phone.append(row(item));
        group.append(phone);
      }
      frag.append(group);
    }
    root.replaceChildren(frag);
    empty.hidden = groups.size > 0;
  }

  function row(item) {
    const b = el('button', 'item');
    b.type = 'button';
    b.dataset.id = item.id;
    b.dataset.state = stateOf(item);
    b.setAttribute('aria-current', String(item.id === current));
    b.append(el('span', `kind ${item.kind}`, item.kind), el('span', 'what', item.short), el('span', `pill ${stateOf(item)}`, pillText(item)));
    b.title = `${item.check} · ${item.summary}`;
    b.addEventListener('click', () => onPick(item.id));
    return b;
  }

  PW.queue = {
    stateOf,
    /** Replaces the failures; `current` stays listed even when reviewed, so the page does not jump under a decision. */
    set(next, selected) {
      items = next;
      current = selected;
      render();
    },
    /** Marks the failure shown; a reviewed one leaving the current place leaves the queue with it. */
    select(id) {
      const left = items.find((i) => i.id === current);
      const coming = items.find((i) => i.id === id);
      current = id;
      if ((left && left.decision) || (coming && coming.decision)) render();
      for (const b of root.querySelectorAll('.item')) b.setAttribute('aria-current', String(b.dataset.id === id));
      const shown = root.querySelector(`.item[data-id="${id}"]`);
      if (shown) shown.scrollIntoView({ block: 'nearest' });
    },
    setShowReviewed(on) {
      showReviewed = on;
      render();
    },
    onPick(fn) {
      onPick = fn;
    },
    /** The failure shown `step` places after (or before) the current one, in the queue's order. */
    next(step) {
      const shown = [...root.querySelectorAll('.item')].map((b) => b.dataset.id);
      const at = shown.indexOf(current);
      return shown[at < 0 ? 0 : at + step];
    },
    /** The first failure still to review after the current one (or before it), for after a decision. */
    nextPending() {
      const at = items.findIndex((i) => i.id === current);
      const pending = (i) => !i.decision;
      return items.slice(at + 1).find(pending) || items.slice(0, Math.max(0, at)).find(pending);
    },
  };
})();
