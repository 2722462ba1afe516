/* global window, document */
// The phone's screen on the page: one canvas pixel per phone pixel, drawn at any zoom with
// image-rendering: pixelated, so that a page position maps to exactly one phone pixel: the canvas's
// box on the page, divided into the screen's width and height. Overlays (point, region, masks, texts) are placed
// in percent of the screen, so they sit on the same pixels at every zoom.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  const MAG_CELLS = 11;
  /** The pixel grid shows from this zoom on: below it the lines would hide the pixels. */
  const GRID_FROM = 6;

  let el;
  let size = { width: 1, height: 1 };
  let zoom = 'fit';
  let scale = 1;
  let captured = false;

  const pct = (v, of) => `${(v / of) * 100}%`;
  const place = (node, r) => {
    node.style.left = pct(r.x, size.width);
    node.style.top = pct(r.y, size.height);
    node.style.width = pct(r.width, size.width);
    node.style.height = pct(r.height, size.height);
  };

  /** Page coordinates to the phone pixel under them: exact at any zoom, clamped to the screen. */
  function toPhone(clientX, clientY) {
    const box = el.canvas.getBoundingClientRect();
    const x = Math.floor(((clientX - box.left) * size.width) / box.width);
    const y = Math.floor(((clientY - box.top) * size.height) / box.height);
    return { x: Math.min(size.width - 1, Math.max(0, x)), y: Math.min(size.height - 1, Math.max(0, y)) };
  }

  function contains(clientX, clientY) {
    const box = el.canvas.getBoundingClientRect();
    return clientX >= box.left && clientX < box.right && clientY >= box.top && clientY < box.bottom;
  }

  function layout() {
    const fit = Math.min((el.viewport.clientWidth - 32) / size.width, (el.viewport.clientHeight - 32) / size.height);
    scale = zoom === 'fit' ? Math.max(0.05, Math.min(16, fit)) : zoom;
    const w = size.width * scale;
    const h = size.height * scale;
    el.stage.style.width = `${w}px`;
    el.stage.style.height = `${h}px`;
    el.canvas.style.width = `${w}px`;
    el.canvas.style.height = `${h}px`;
    const grid = Number.isInteger(scale) && scale >= GRID_FROM;
    el.grid.hidden = !grid;
    if (grid) el.grid.style.backgroundSize = `${scale}px ${scale}px`;
    el.stage.classList.toggle('fine', scale >= 3);
  }

  function magnify(p, cells) {
    const ctx = el.magnifier.getContext('2d');
    const side = el.magnifier.width;
    const cell = side / MAG_CELLS;
    const half = (MAG_CELLS - 1) / 2;
    ctx.imageSmoothingEnabled = false;
    // A checkerboard where there is no pixel: past the screen's edge, or not read.
    for (let j = 0; j < MAG_CELLS; j++) for (let i = 0; i < MAG_CELLS; i++) {
      ctx.fillStyle = (i + j) % 2 ? '#d9dce3' : '#f1f2f5';
      ctx.fillRect(i * cell, j * cell, cell, cell);
    }
    if (!p) return;
    if (captured) {
      const x0 = Math.max(0, p.x - half);
      const y0 = Math.max(0, p.y - half);
      const x1 = Math.min(size.width, p.x + half + 1);
      const y1 = Math.min(size.height, p.y + half + 1);
      ctx.drawImage(el.canvas, x0, y0, x1 - x0, y1 - y0, (x0 - p.x + half) * cell, (y0 - p.y + half) * cell, (x1 - x0) * cell, (y1 - y0) * cell);
    } else if (cells) {
      cells.cells.forEach((c, k) => {
        if (!c) return;
        const i = cells.x0 + (k % 9) - p.x + half;
        const j = cells.y0 + Math.floor(k / 9) - p.y + half;
        ctx.fillStyle = `#${c.slice(2)}`;
        ctx.fillRect(i * cell, j * cell, cell, cell);
      });
    }
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.18)';
    ctx.lineWidth = 1;
    for (let k = 1; k < MAG_CELLS; k++) {
      ctx.beginPath();
      ctx.moveTo(k * cell + 0.5, 0);
      ctx.lineTo(k * cell + 0.5, side);
      ctx.moveTo(0, k * cell + 0.5);
      ctx.lineTo(side, k * cell + 0.5);
      ctx.stroke();
    }
    // The pixel itself: black inside white, seen on any colour.
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#fff';
    ctx.strokeRect(half * cell + 1, half * cell + 1, cell - 2, cell - 2);
    ctx.strokeStyle = '#111';
    ctx.strokeRect(half * cell - 1, half * cell - 1, cell + 2, cell + 2);
  }

  PW.view = {
    init(elements) {
      el = elements;
      window.addEventListener('resize', () => zoom === 'fit' && layout());
      magnify(undefined);
    },
    toPhone,
    contains,
    /** The screen's size in phone pixels. */
    setSize(width, height) {
      size = { width, height };
      el.canvas.width = width;
      el.canvas.height = height;
      layout();
    },
    get size() {
      return size;
    },
    get scale() {
      return scale;
    },
    /** `fit` or page pixels per phone pixel. */
    setZoom(z) {
      zoom = z;
      layout();
    },
    /** Draws a capture of the whole screen. */
    draw(bitmap) {
      if (bitmap.width !== size.width || bitmap.height !== size.height) this.setSize(bitmap.width, bitmap.height);
      el.canvas.getContext('2d').drawImage(bitmap, 0, 0);
      captured = true;
    },
    set captured(value) {
      captured = value;
    },
    showMarker(p) {
      el.marker.hidden = !p;
      if (p) place(el.marker, { x: p.x, y: p.y, width: 1, height: 1 });
    },
    showRegion(r, masks) {
      el.regionBox.hidden = !r;
      if (r) place(el.regionBox, r);
      el.masks.replaceChildren(
        ...(r ? masks : []).map((m) => {
          const node = document.createElement('div');
          node.className = 'mask';
          place(node, m);
          return node;
        }),
      );
    },
    /** Boxes each text on the screen, its text on a label above it (below it at the screen's top edge). */
    showTexts(texts) {
      el.texts.replaceChildren(
        ...texts.map((t) => {
          const node = Object.assign(document.createElement('div'), { className: 'text-box', title: `"${t.text}" at ${t.box.width}×${t.box.height} (${t.box.x}, ${t.box.y})` });
          place(node, t.box);
          node.classList.toggle('below', t.box.y < size.height * 0.04);
          node.append(Object.assign(document.createElement('span'), { className: 'text-tag', textContent: t.text }));
          return node;
        }),
      );
    },
    showDrag(r, masking) {
      el.dragBox.hidden = !r;
      el.dragBox.classList.toggle('masking', Boolean(masking));
      if (r) place(el.dragBox, r);
    },
    magnify,
    /** Scrolls the point into view after a nudge. */
    reveal(p) {
      const box = el.canvas.getBoundingClientRect();
      const view = el.viewport.getBoundingClientRect();
      const cx = box.left + ((p.x + 0.5) * box.width) / size.width;
      const cy = box.top + ((p.y + 0.5) * box.height) / size.height;
      if (cx < view.left + 20 || cx > view.right - 20) el.viewport.scrollLeft += cx - (view.left + view.right) / 2;
      if (cy < view.top + 20 || cy > view.bottom - 20) el.viewport.scrollTop += cy - (view.top + view.bottom) / 2;
    },
  };
})();
