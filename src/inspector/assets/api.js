/* global window, fetch, URLSearchParams, location */
// The page's calls to its own API: the token of the URL goes on in a header; the server makes every call
// to the device-control server, so nothing here ever holds its password or token.
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
      res = await fetch(`/api/${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch {
      throw new ApiError('the inspector does not answer: is phonewright inspect still running?', 0, 'offline');
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

  PW.api = {
    ApiError,
    /** GET a JSON route, e.g. get('pixel', { phone, x, y }). */
    get: async (route, query) => (await call('GET', `${route}${query ? `?${new URLSearchParams(query)}` : ''}`)).json(),
    /** POST a JSON body to a route. */
    post: async (route, body) => (await call('POST', route, body)).json(),
    /** GET bytes, e.g. the screen's PNG. */
    blob: async (route, query) => (await call('GET', `${route}?${new URLSearchParams(query)}`)).blob(),
  };
})();
