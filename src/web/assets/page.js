/* global window, document, fetch, URLSearchParams, location */
// What both local pages' scripts share. Their calls to the page's own API: the token of the URL goes on in a
// header (and on image URLs, which an <img> cannot send a header with); the server makes every call to the
// device-control server, so nothing here ever holds its password or token. And how they make elements and lists.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  const token = new URLSearchParams(location.search).get('token') || '';

  /** An API failure: the server's one line, its HTTP status and reason. */
  class ApiError extends Error {
    constructor(message, status, reason) {
      super(message);
      this.status = status;
      this.reason = reason;
    }
  }

  async function call(method, route, body) {
    const headers = { 'x-phonewright-token': token };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res;
    try {
      res = await fetch(`api/${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch {
      // The title names the command: phonewright inspect, phonewright review.
      throw new ApiError(`the page's server does not answer: is ${document.title} still running?`, 0, 'offline');
    }
    if (res.ok) return res;
    let failure = {};
    try {
      failure = await res.json();
    } catch {
      // Not JSON: the status says it.
    }
    throw new ApiError(failure.error || `HTTP ${res.status}`, res.status, failure.reason);
  }

  const withQuery = (route, query) => `${route}${query ? `?${new URLSearchParams(query)}` : ''}`;

  PW.api = {
    ApiError,
    /** GET a JSON route, e.g. get('pixel', { phone, x, y }). */
    get: async (route, query) => (await call('GET', withQuery(route, query))).json(),
    /** POST a JSON body to a route. */
    post: async (route, body) => (await call('POST', route, body)).json(),
    /** GET bytes, e.g. the screen's PNG. */
    blob: async (route, query) => (await call('GET', withQuery(route, query))).blob(),
    /** An API URL an <img> loads: the token on it. */
    imageUrl: (url) => `${url}&token=${encodeURIComponent(token)}`,
  };

  /** A new element of `tag`, with a class and a text when given. */
  PW.el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  /** Fills a list with an item made for each entry, or with the one item `empty` when there is none. */
  PW.fill = (list, entries, empty, item) => list.replaceChildren(...(entries.length ? entries.map(item) : [empty]));
})();
