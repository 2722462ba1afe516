/* global window, document */
// The decision card: what Accept would write (a golden, or a spec line before and after), or why it cannot; the
// buttons, with "Accept all for this phone" and "Accept for every phone of this model" where the same change
// failed on several; and after a decision, the files written and what git says of them.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  const $ = (id) => document.getElementById(id);
  const state = $('d-state');
  const note = $('d-note');
  const writes = $('d-writes');
  const lineDiff = $('d-line');
  const accept = $('accept');
  const acceptPhone = $('accept-phone');
  const acceptModel = $('accept-model');
  const reject = $('reject');
  const result = $('d-result');

  const el = PW.el;

  /** Failures Accept with `scope` would take along with `item`: those of its phone, or its check on its model's phones. */
  function group(items, item, scope) {
    if (scope === 'phone') return items.filter((i) => i.project === item.project && i.accept.ok);
    if (!item.model) return [];
    return items.filter((i) => i.model === item.model && i.test === item.test && i.checkId === item.checkId && i.accept.ok);
  }

  function when(iso) {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
  }

  PW.decide = {
    group,
    /** Shows a failure's decision, and what its buttons would do. */
    show(item, items, live) {
      result.replaceChildren();
      result.className = 'result';
      writes.replaceChildren();
      writes.hidden = true;
      lineDiff.replaceChildren();
      lineDiff.hidden = true;
      note.className = 'note';
      const st = PW.queue.stateOf(item);
      state.textContent = st === 'pending' ? '· to review' : `· ${st}`;
      const d = item.decision;
      if (d) {
        const earlier = d.earlier ? ' on an earlier run: it failed the same way' : '';
        note.textContent = `${d.verdict === 'accepted' ? 'Accepted' : 'Rejected'} ${when(d.at)}${earlier}.`;
        if (d.files && d.files.length) {
          writes.hidden = false;
          writes.append(el('span', 'muted', 'Written: '), ...d.files.map((f) => el('code', '', f)));
        }
      } else if (item.accept.ok) {
        note.textContent = item.kind === 'pixel' ? 'Accept writes the colour the phone showed into the spec line:' : 'Accept writes this run\'s sample as the golden:';
      } else {
        note.textContent = item.accept.why;
        if (item.accept.stale) note.classList.add('stale');
      }
      if (item.accept.ok && !d) {
        writes.hidden = false;
        writes.append(...item.accept.writes.map((f) => el('code', '', f)));
      }
      const line = item.accept.ok ? item.accept.line : undefined;
      const where = !item.accept.ok ? item.accept.where : undefined;
      if (line && !d) {
        lineDiff.hidden = false;
        lineDiff.append(el('span', 'where', `${line.file}:${line.line}`), el('span', 'del', `- ${line.before.trim()}`), el('span', 'add', `+ ${line.after.trim()}`));
      } else if (where) {
        lineDiff.hidden = false;
        lineDiff.append(el('span', 'where', `${where.file}:${where.line}`), el('span', '', where.code));
      }
      const canAccept = live && item.accept.ok && (!d || d.verdict === 'rejected');
      accept.disabled = !canAccept;
      reject.disabled = !live || !!d;
      const phone = group(items, item, 'phone');
      const model = group(items, item, 'model');
      acceptPhone.hidden = !live || phone.length < 2;
      acceptPhone.querySelector('.n').textContent = `(${phone.length})`;
      acceptPhone.title = `Accepts the ${phone.length} failures of ${item.project} that can be accepted`;
      acceptModel.hidden = !live || model.length < 2;
      acceptModel.querySelector('.n').textContent = `(${model.length})`;
      acceptModel.title = item.model ? `Accepts this check on the ${model.length} phones of model ${item.model}: ${model.map((i) => i.project).join(', ')}` : '';
      document.getElementById('static-note').hidden = live;
    },
    /** What a decision did: the files written and git's word on them; or why it failed. */
    done(r) {
      result.replaceChildren();
      result.className = 'result ok';
      const what = r.written.length ? `Accepted ${r.decided}: wrote` : `Rejected ${r.decided === 1 ? '' : r.decided}`.trim();
      result.append(el('div', '', `${what}${r.skipped ? ` (${r.skipped} of the group could not be accepted)` : ''}`));
      for (const f of r.written) result.append(el('code', 'written', f));
      if (r.written.length) {
        const git = el('div', 'git');
        git.textContent = r.git === undefined ? 'not in a git repository' : r.git.length ? `git status: ${r.git.join(' · ')}` : 'git status: no change';
        result.append(git);
      }
    },
    failed(message) {
      result.className = 'result bad';
      result.textContent = message;
    },
  };
})();
