/* global window */
// Where the page's data comes from. Served by phonewright review: its API (the shared calls of page.js). Written by
// --static: data.js beside the page, read-only.
(function () {
  'use strict';
  const PW = window.PW;
  const written = window.PHONEWRIGHT_REVIEW;
  const readOnly = async () => {
    throw new PW.api.ApiError('this page only shows the review: decide with phonewright review', 0);
  };

  // The run's failures are asked for at once, while the page's other files load.
  const first = written ? undefined : PW.api.get('review');
  if (first) first.catch(() => {});

  PW.source = written
    ? { live: false, load: async () => written, heat: async (id) => (written.heat || {})[id], image: (url) => url, accept: readOnly, reject: readOnly }
    : {
        live: true,
        load: () => first,
        heat: (id) => PW.api.get('heat', { id }).catch(() => undefined),
        image: PW.api.imageUrl,
        accept: (id, scope) => PW.api.post('accept', { id, scope }),
        reject: (id) => PW.api.post('reject', { id }),
      };
})();
