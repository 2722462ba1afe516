/* global window, document */
// The review page: the run's failures loaded once, one shown at a time, the keyboard, and the decisions, sent one
// at a time.
(function () {
  'use strict';
  const PW = window.PW;
  const $ = (id) => document.getElementById(id);
  const src = PW.source;
  let items = [];
  let current;
  /** Why Accept writes nothing in this review, from the run's facts; undefined where it may write. */
  let readOnly;
  /** The last decision sent: the next is sent when it has answered. */
  let sending = Promise.resolve();
  /** Decisions sent and not yet answered: while there are, the answers stay shown when another failure is. */
  let waiting = 0;

  const el = PW.el;

  function byId(id) {
    return items.find((i) => i.id === id);
  }

  function counts() {
    const left = items.filter((i) => !i.decision).length;
    const out = $('counts');
    out.replaceChildren(el('strong', '', String(left)), ` to review of ${items.length} failure${items.length === 1 ? '' : 's'}`);
    out.dataset.left = String(left);
  }

  function header(run) {
    const facts = $('run-facts');
    const ran = new Date(run.ranAt);
    facts.replaceChildren(el('span', 'fact', run.report), el('span', 'fact', `run ${Number.isNaN(ran.getTime()) ? run.ranAt : ran.toLocaleString()}`));
    if (run.madeElsewhere) facts.append(el('span', 'fact', `made in ${run.madeElsewhere}`));
    if (!src.live) facts.append(el('span', 'fact', 'static'));
  }

  function show(id) {
    const item = byId(id);
    if ((item && item.id) !== current && !waiting) PW.decide.clear();
    current = item && item.id;
    PW.queue.select(current);
    if (!item) {
      $('f-test').textContent = items.length ? 'Nothing left to review' : 'No visual failure in this run';
      $('f-chips').replaceChildren();
      $('f-summary').textContent = '';
      PW.viewer.show(undefined);
      PW.film.show(undefined);
      return;
    }
    $('f-test').textContent = item.test;
    const chips = [el('span', 'chip', item.project), ...(item.model ? [el('span', 'chip', item.model)] : []), el('span', 'chip', item.phone), el('span', 'chip check', item.check), el('span', 'chip', `${item.spec}${item.line ? `:${item.line}` : ''}`)];
    if (item.golden) chips.push(el('span', 'chip', item.golden));
    $('f-chips').replaceChildren(...chips);
    $('f-summary').textContent = item.summary;
    const screen = $('phone-screen');
    screen.hidden = !item.images.screen;
    $('no-screen').hidden = !!item.images.screen;
    if (item.images.screen) screen.src = src.image(item.images.screen);
    else screen.removeAttribute('src');
    PW.film.show(item);
    PW.decide.show(item, items, src.live, readOnly);
    PW.viewer.show(item);
    markZoom('fit');
  }

  function update(next) {
    items = next;
    PW.queue.set(items, current);
    counts();
  }

  /**
   * Sends a decision on the failure shown once those sent before it have answered, in the order they were made: two
   * sent at once would each be decided on what the other is about to change. Each answer fills its own line; one
   * that comes while another failure is shown names its failure.
   */
  function decide(action, scope) {
    const item = byId(current);
    if (!item || !src.live) return;
    const line = PW.decide.sent(action, `${item.project} · ${item.short}`);
    waiting++;
    sending = sending.then(async () => {
      try {
        const answer = action === 'reject' ? await src.reject(item.id) : await src.accept(item.id, scope);
        update(answer.items);
        const here = current === item.id;
        if (here) show(item.id);
        PW.decide.done(line, answer.result, !here);
      } catch (error) {
        PW.decide.failed(error.message, line, current !== item.id);
      } finally {
        waiting--;
      }
    });
  }

  function setView(view) {
    for (const b of document.querySelectorAll('#views button')) {
      b.classList.toggle('on', b.dataset.view === view);
      b.setAttribute('aria-pressed', String(b.dataset.view === view));
    }
    PW.viewer.setView(view);
  }

  function setZoom(zoom) {
    markZoom(PW.viewer.setZoom(zoom));
  }

  function markZoom(now) {
    for (const b of document.querySelectorAll('#zoom button')) b.classList.toggle('on', b.dataset.zoom === String(now));
  }

  for (const b of document.querySelectorAll('#views button')) b.addEventListener('click', () => setView(b.dataset.view));
  for (const b of document.querySelectorAll('#zoom button')) b.addEventListener('click', () => setZoom(b.dataset.zoom === 'fit' ? 'fit' : Number(b.dataset.zoom)));
  $('accept').addEventListener('click', () => decide('accept', 'one'));
  $('accept-phone').addEventListener('click', () => decide('accept', 'phone'));
  $('accept-model').addEventListener('click', () => decide('accept', 'model'));
  $('reject').addEventListener('click', () => decide('reject'));
  $('show-reviewed').addEventListener('change', (e) => {
    PW.queue.setShowReviewed(e.target.checked);
    PW.queue.select(current);
  });
  PW.queue.onPick(show);

  const VIEWS = { 1: 'side', 2: 'slider', 3: 'blink', 4: 'diff' };
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    const typing = t && (t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || (t.tagName === 'INPUT' && !/^(checkbox|radio|button)$/.test(t.type)));
    if (e.ctrlKey || e.metaKey || e.altKey || typing) return;
    const k = e.key;
    if (k === 'j' || k === 'k') {
      const next = PW.queue.next(k === 'j' ? 1 : -1);
      if (next) show(next);
    } else if (k === 'a') {
      const item = byId(current);
      if (item && !item.accept.ok && src.live) PW.decide.failed(`cannot accept: ${item.accept.why}`);
      else if (!$('accept').disabled) decide('accept', 'one');
    } else if (k === 'r') {
      if (!$('reject').disabled) decide('reject');
    } else if (VIEWS[k]) {
      setView(VIEWS[k]);
    } else if (k === '+' || k === '=' || k === '-') {
      setZoom(k === '-' ? '-' : '+');
    } else if (k === '0') {
      setZoom('fit');
    } else {
      return;
    }
    e.preventDefault();
  });

  src
    .load()
    .then((doc) => {
      readOnly = doc.run.readOnly;
      header(doc.run);
      update(doc.items);
      const first = items.find((i) => !i.decision) || items[0];
      show(first && first.id);
      document.body.dataset.ready = 'true';
    })
    .catch((error) => {
      $('f-test').textContent = `Could not load the review: ${error.message}`;
    });
})();
