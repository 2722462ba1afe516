/* global window, document, setInterval, clearInterval, ResizeObserver */
// The images of one failure in four views: side by side, a slider (a divider dragged across: expected on its left,
// actual on its right), blink (expected and actual in turn) and the ΔE00 heat map with its masks. One zoom and one
// pan for every pane, so both sides move together; pixels stay crisp (image-rendering: pixelated) at every zoom.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  const stage = document.getElementById('stage');
  const legend = document.getElementById('legend');
  const heatFacts = document.getElementById('heat-facts');
  const zoomLevel = document.getElementById('zoom-level');
  const ZOOMS = [0.25, 0.5, 1, 2, 4, 8, 16, 32];
  const BLINK_MS = 600;
  const NAMES = { expected: 'Expected', actual: 'Actual', heat: 'ΔE00' };

  const s = { item: undefined, view: 'side', zoom: 'fit', scale: 1, offX: 0, offY: 0, split: 0.5, natural: undefined, blink: undefined, showing: 'expected' };

  const el = PW.el;

  function img(kind) {
    const url = s.item.images[kind];
    if (!url) return undefined;
    const i = el('img');
    i.dataset.kind = kind;
    i.alt = NAMES[kind] || kind;
    i.draggable = false;
    i.addEventListener('load', () => {
      if (s.natural) return place();
      s.natural = { w: i.naturalWidth, h: i.naturalHeight };
      fit();
    });
    i.src = PW.source.image(url);
    return i;
  }

  function pane(name, kinds, label, missing) {
    const p = el('div', 'pane');
    p.dataset.pane = name;
    const imgs = kinds.map(img).filter(Boolean);
    if (!imgs.length) p.append(el('div', 'none', missing));
    for (const i of imgs) p.append(i);
    if (label) p.append(el('span', 'label', label));
    pannable(p);
    return p;
  }

  function build() {
    stopBlink();
    stage.replaceChildren();
    stage.dataset.view = s.view;
    legend.hidden = s.view !== 'diff';
    const item = s.item;
    if (!item) return;
    const noGolden = item.kind === 'region' ? 'No golden: the run had none to compare with' : 'No expected image was attached';
    if (s.view === 'side') {
      stage.append(pane('expected', ['expected'], 'Expected', noGolden), pane('actual', ['actual'], 'Actual', 'No actual image was attached'));
    } else if (s.view === 'slider') {
      const p = pane('slider', ['expected', 'actual'], 'Expected', 'No images were attached');
      const right = el('span', 'label right', 'Actual');
      const divider = el('div', 'divider');
      divider.append(el('span'));
      divider.setAttribute('role', 'slider');
      divider.setAttribute('aria-label', 'Divider');
      p.append(right, divider);
      slidable(p, divider);
      stage.append(p);
    } else if (s.view === 'blink') {
      const p = pane('blink', ['expected', 'actual'], 'Expected', 'No images were attached');
      stage.append(p);
      s.showing = 'expected';
      p.dataset.showing = 'expected';
      if (item.images.expected && item.images.actual) s.blink = setInterval(() => flip(p), BLINK_MS);
    } else {
      stage.append(pane('diff', ['heat'], '', item.images.expected ? 'No heat map: the images differ in size' : `No heat map: ${noGolden.toLowerCase()}`));
      heatFacts.textContent = '';
      if (item.images.heat) {
        const id = item.id;
        PW.source.heat(id).then((h) => {
          if (h && s.item && s.item.id === id) heatFacts.textContent = h.changed ? `${h.changed} pixel${h.changed === 1 ? '' : 's'} differ · largest ΔE00 ${h.largest}` : 'no pixel differs';
        });
      }
    }
    requestFit();
  }

  function flip(p) {
    s.showing = s.showing === 'expected' ? 'actual' : 'expected';
    place();
    p.dataset.showing = s.showing;
  }

  function stopBlink() {
    if (s.blink) clearInterval(s.blink);
    s.blink = undefined;
  }

  /** Lays every image out at the one zoom and pan; the slider clips the actual image at its divider. */
  function place() {
    if (!s.natural) return;
    for (const p of stage.querySelectorAll('.pane')) {
      const w = p.clientWidth;
      for (const i of p.querySelectorAll('img')) {
        const nw = i.naturalWidth || s.natural.w;
        const nh = i.naturalHeight || s.natural.h;
        i.style.left = `${s.offX}px`;
        i.style.top = `${s.offY}px`;
        i.style.width = `${nw * s.scale}px`;
        i.style.height = `${nh * s.scale}px`;
        if (s.view === 'slider' && i.dataset.kind === 'actual') i.style.clipPath = `inset(0 0 0 ${Math.max(0, s.split * w - s.offX)}px)`;
        if (s.view === 'slider' && i.dataset.kind === 'expected') i.className = 'back';
        if (s.view === 'blink') i.hidden = i.dataset.kind !== s.showing && !!s.item.images[s.showing];
      }
      const label = p.querySelector('.label:not(.right)');
      if (s.view === 'blink' && label) label.textContent = NAMES[s.showing];
      const divider = p.querySelector('.divider');
      if (divider) {
        divider.style.left = `${s.split * w}px`;
        divider.setAttribute('aria-valuenow', String(Math.round(s.split * 100)));
      }
      for (const b of p.querySelectorAll('.maskbox')) b.remove();
      if (s.view === 'diff') {
        for (const m of s.item.mask || []) {
          const b = el('div', 'maskbox');
          Object.assign(b.style, { left: `${s.offX + m.x * s.scale}px`, top: `${s.offY + m.y * s.scale}px`, width: `${m.width * s.scale}px`, height: `${m.height * s.scale}px` });
          p.append(b);
        }
      }
    }
    zoomLevel.textContent = `${s.zoom === 'fit' ? 'Fit: ' : ''}${Math.round(s.scale * 100) / 100}×`;
  }

  /** The largest zoom at which the image fits its pane; from 2× up a whole number, so every pixel is as wide as the next. */
  function fitScale(p) {
    const f = Math.min((p.clientWidth - 16) / s.natural.w, (p.clientHeight - 16) / s.natural.h);
    return f >= 2 ? Math.floor(f) : f;
  }

  function fit() {
    const p = stage.querySelector('.pane');
    if (!p || !s.natural) return;
    s.scale = s.zoom === 'fit' ? fitScale(p) : s.zoom;
    s.offX = Math.round((p.clientWidth - s.natural.w * s.scale) / 2);
    s.offY = Math.round((p.clientHeight - s.natural.h * s.scale) / 2);
    place();
  }

  let fitting = false;
  function requestFit() {
    if (fitting) return;
    fitting = true;
    window.requestAnimationFrame(() => {
      fitting = false;
      fit();
    });
  }

  /** Zooms about the panes' centre: the screen pixel there stays there. */
  function zoomTo(zoom) {
    const p = stage.querySelector('.pane');
    s.zoom = zoom;
    if (!p || !s.natural) return;
    const next = zoom === 'fit' ? fitScale(p) : zoom;
    if (zoom === 'fit') return fit();
    const cx = (p.clientWidth / 2 - s.offX) / s.scale;
    const cy = (p.clientHeight / 2 - s.offY) / s.scale;
    s.scale = next;
    s.offX = Math.round(p.clientWidth / 2 - cx * next);
    s.offY = Math.round(p.clientHeight / 2 - cy * next);
    place();
  }

  function pannable(p) {
    p.addEventListener('pointerdown', (e) => {
      if (e.target.closest('.divider')) return;
      p.setPointerCapture(e.pointerId);
      p.classList.add('panning');
      let x = e.clientX;
      let y = e.clientY;
      const move = (m) => {
        s.offX += m.clientX - x;
        s.offY += m.clientY - y;
        x = m.clientX;
        y = m.clientY;
        place();
      };
      const up = () => {
        p.classList.remove('panning');
        p.removeEventListener('pointermove', move);
        p.removeEventListener('pointerup', up);
      };
      p.addEventListener('pointermove', move);
      p.addEventListener('pointerup', up);
    });
  }

  function slidable(p, divider) {
    divider.addEventListener('pointerdown', (e) => {
      divider.setPointerCapture(e.pointerId);
      const move = (m) => {
        const box = p.getBoundingClientRect();
        s.split = Math.min(1, Math.max(0, (m.clientX - box.left) / box.width));
        place();
      };
      const up = () => {
        divider.removeEventListener('pointermove', move);
        divider.removeEventListener('pointerup', up);
      };
      divider.addEventListener('pointermove', move);
      divider.addEventListener('pointerup', up);
    });
  }

  new ResizeObserver(() => (s.zoom === 'fit' ? requestFit() : place())).observe(stage);

  PW.viewer = {
    /** Shows a failure, fitted, in the current view. */
    show(item) {
      s.item = item;
      s.natural = undefined;
      s.zoom = 'fit';
      s.split = 0.5;
      build();
    },
    setView(view) {
      s.view = view;
      build();
    },
    /** 'fit', a zoom, or '+' / '-' for the next step. */
    setZoom(zoom) {
      if (zoom === '+' || zoom === '-') {
        const next = zoom === '+' ? ZOOMS.find((z) => z > s.scale + 1e-9) : [...ZOOMS].reverse().find((z) => z < s.scale - 1e-9);
        if (next !== undefined) zoomTo(next);
        return s.zoom;
      }
      zoomTo(zoom);
      return s.zoom;
    },
    get view() {
      return s.view;
    },
  };
})();
