/* global window, document */
// The queue: every failure, grouped by test, then by phone, each with its state. Reviewed ones (accepted or
// rejected) leave it unless "Show reviewed" is on; j and k walk the failures shown.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  const root = document.getElementById('queue');
  const empty = document.getElementById('queue-empty');

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

  /** Text for HTML: the page's data is a report's, never markup. */
  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  }

  /** The queue, built as one piece of HTML: 200 failures are one parse, not a thousand nodes appended one by one. */
  function render() {
    const groups = new Map();
    for (const item of items) {
      if (item.decision && !showReviewed && item.id !== current) continue;
      let g = groups.get(item.test);
      if (!g) groups.set(item.test, (g = new Map()));
      const phone = g.get(item.project) || [];
      phone.push(item);
      g.set(item.project, phone);
    }
    const html = [];
    for (const [test, phones] of groups) {
      const { title, file } = split(test);
      html.push(`<section class="group" data-test="${esc(test)}"><h3>${esc(title)}<span class="file">${esc(file)}</span></h3>`);
      for (const [project, list] of phones) {
        const model = list[0].model ? `<span class="model">${esc(list[0].model)}</span>` : '';
        html.push(`<div class="phone" data-project="${esc(project)}"><h4>${esc(project)}${model}</h4>`);
        for (const item of list) html.push(row(item));
        html.push('</div>');
      }
      html.push('</section>');
    }
    root.innerHTML = html.join('');
    empty.hidden = groups.size > 0;
  }

  function row(item) {
    const state = stateOf(item);
    return (
      `<button type="button" class="item" data-id="${esc(item.id)}" data-state="${state}" aria-current="${item.id === current}" title="${esc(`${item.check} · ${item.summary}`)}">` +
      `<span class="kind ${esc(item.kind)}">${esc(item.kind)}</span><span class="what">${esc(item.short)}</span><span class="pill ${state}">${esc(pillText(item))}</span></button>`
    );
  }

  root.addEventListener('click', (e) => {
    const b = e.target.closest('.item');
    if (b) onPick(b.dataset.id);
  });

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
