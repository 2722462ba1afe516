/* global window, document */
// The failure's film beside the phone's screen at the failure, where the test was filmed (phoneVideo): it starts a
// few seconds before the step that failed, and the test's steps are listed under it, each a button that seeks the
// film to the moment the step began; the step the film is at is marked as it plays. A failure without a film shows
// the screen alone, as before.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  const $ = (id) => document.getElementById(id);
  const layout = document.querySelector('.layout');
  const card = $('screen-card');
  const title = $('screen-title');
  const video = $('phone-film');
  const caption = $('film-caption');
  const list = $('film-steps');
  const el = PW.el;
  /** How long before the end a film without a failed step starts, in seconds (the server's FILM_LEAD_S). */
  const LEAD_S = 3;

  let film;
  let start = 0;
  /** The film's URL as loaded: a failure shown again (after a decision) keeps its place in the film. */
  let loaded;

  /** `0:05.2`: seconds into the film. */
  function clock(s) {
    const m = Math.floor(s / 60);
    const rest = s - m * 60;
    return `${m}:${rest < 10 ? '0' : ''}${rest.toFixed(1)}`;
  }

  function item(step, i) {
    const li = el('li', step.failed ? 'failed' : '');
    if (i === film.failing) li.classList.add('failing');
    li.dataset.at = String(step.at);
    const b = el('button');
    b.type = 'button';
    b.title = `Seek the film to ${clock(step.at)}`;
    b.append(el('span', 't', clock(step.at)), el('span', `mark ${step.failed ? 'bad' : 'ok'}`, step.failed ? '✗' : '✓'), el('span', 'what', step.title), el('span', 'ms', `${step.ms} ms`));
    b.addEventListener('click', () => seek(step.at));
    li.append(b);
    return li;
  }

  function seek(at) {
    video.currentTime = at;
    mark();
  }

  /** Marks the step the film is at: the last one begun by now. */
  function mark() {
    const t = video.currentTime;
    let at = -1;
    list.querySelectorAll('li').forEach((li, i) => {
      if (Number(li.dataset.at) <= t + 0.001) at = i;
    });
    list.querySelectorAll('li').forEach((li, i) => (i === at ? li.setAttribute('aria-current', 'step') : li.removeAttribute('aria-current')));
  }

  video.addEventListener('loadedmetadata', () => {
    // A film whose checks all passed (a test that failed after them) starts a little before its end.
    if (film && film.start === undefined && Number.isFinite(video.duration)) start = Math.max(0, video.duration - LEAD_S);
    video.currentTime = start;
  });
  video.addEventListener('timeupdate', mark);
  video.addEventListener('seeked', mark);

  PW.film = {
    /** Shows a failure's film and steps beside its screen, or the screen alone. */
    show(item_) {
      film = item_ && item_.film;
      const on = !!film;
      card.classList.toggle('filmed', on);
      layout.classList.toggle('filmed', on);
      title.textContent = on ? 'The phone at the failure' : 'Phone screen at the failure';
      if (!on) {
        video.pause();
        video.removeAttribute('src');
        video.load();
        loaded = undefined;
        list.replaceChildren();
        return;
      }
      if (loaded === film.url) return;
      loaded = film.url;
      video.pause();
      start = film.start || 0;
      caption.textContent = film.failing === undefined ? 'Film, its last seconds' : `Film, from ${clock(start)}: ${LEAD_S} s before the failing step`;
      list.replaceChildren(...film.steps.map(item));
      video.src = PW.source.image(film.url);
    },
  };
})();
