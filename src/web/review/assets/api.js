/* global window, fetch, URLSearchParams, location */
// Where the page's data comes from. Served by phonewright review: its API, the token of the URL in a header (and
// on image URLs, which an <img> cannot send a header with). Written by --static: data.js beside the page, read-only.
(function () {
  'use strict';
  const PW = (window.PW = window.PW || {});
  const token = new URLSearchParams(location.search).get('token') || '';
  const written = window.PHONEWRIGHT_REVIEW;

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  async function call(method, route, body) {
    const headers = { 'x-phonewright-token': token };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res;
    try {
      res = await fetch(`api/${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch {
      throw new ApiError('the review does not answer: is phonewright review still running?', 0);
    }
    let json = {};
    try {
      json = await res.json();
    } catch {
      // Not JSON: the status says it.
    }
    if (!res.ok) throw new ApiError(json.error || `HTTP ${res.status}`, res.status);
    return json;
  }

  // The run's failures are asked for at once, while the page's other files load.
  const first = written ? undefined : call('GET', 'review');
  if (first) first.catch(() => {});

  PW.source = written
    ? {
        live: false,
        load: async () => written,
        heat: async (id) => (written.heat || {})[id],
        image: (url) => url,
        accept: async () => {
          throw new ApiError('this page only shows the review: decide with phonewright review', 0);
        },
        reject: async () => {
          throw new ApiError('this page only shows the review: decide with phonewright review', 0);
        },
      }
    : {
        live: true,
        load: () => first,
        heat: (id) => call('GET', `heat?${new URLSearchParams({ id })}`).catch(() => undefined),
        image: (url) => `${url}&token=${encodeURIComponent(token)}`,
        accept: (id, scope) => call('POST', 'accept', { id, scope }),
        reject: (id) => call('POST', 'reject', { id }),
      };
})();
