/* global window, document */
// The decision card: what Accept would write (a golden, or a spec line before and after), or why it cannot; the
// buttons, with "Accept all for this phone" and "Accept for every phone of this model" where the same change
// failed on several; and after each decision, the files written and what git says of them, one line per decision
// (those sent one after another each get theirs). A read-only review says once why Accept is off.
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
  const readOnlyNote = $('read-only');

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
    /**
     * Shows a failure's decision, and what its buttons would do.
     * @param readOnly why this review writes nothing, or undefined
     */
    show(item, items, live, readOnly) {
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
      } else if (item.accept.readOnly) {
        // The review's reason, said once in its own line below.
        note.textContent = '';
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
      readOnlyNote.hidden = !live || !readOnly;
      readOnlyNote.textContent = live && readOnly ? `Read-only: ${readOnly}` : '';
    },
    /** Forgets the answers shown. */
    clear() {
      result.replaceChildren();
    },
    /**
     * A line for a decision sent, until its answer fills it.
     * @param label the failure it is about, for when another is shown by the time it answers
     */
    sent(action, label) {
      const line = el('div', 'answer', `${action === 'reject' ? 'Rejecting' : 'Accepting'} ${label}…`);
      line.dataset.label = label;
      result.append(line);
      return line;
    },
    /** What a decision did: the files written and git's word on them. `about` names its failure when another is shown. */
    done(line, r, about) {
      line.className = 'answer ok';
      const what = r.written.length ? `Accepted ${r.decided}: wrote` : `Rejected ${r.decided === 1 ? '' : r.decided}`.trim();
      line.replaceChildren(el('div', '', `${about ? `${line.dataset.label}: ` : ''}${what}${r.skipped ? ` (${r.skipped} of the group could not be accepted)` : ''}`));
      for (const f of r.written) line.append(el('code', 'written', f));
      if (r.written.length) {
        const git = el('div', 'git');
        git.textContent = r.git === undefined ? 'not in a git repository' : r.git.length ? `git status: ${r.git.join(' · ')}` : 'git status: no change';
        line.append(git);
      }
    },
    /** Why a decision failed, in its line; or, with no line, why it cannot be made, in place of the answers shown. */
    failed(message, line, about) {
      if (!line) {
        result.replaceChildren();
        line = result.appendChild(el('div', ''));
      }
      line.className = 'answer bad';
      line.textContent = `${about ? `${line.dataset.label}: ` : ''}${message}`;
    },
  };
})();
