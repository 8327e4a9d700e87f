// Fetch wrapper for the console JSON API: sends JSON (or multipart for uploads), turns
// `{code, message}` error bodies into ApiError, and sends signed-out users to the login page.

class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `Request failed (HTTP ${status})`);
    this.status = status;
    this.code = body?.code || 'http_error';
    this.body = body || {};
  }
}

function loginUrl() {
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

async function request(method, path, { json, form, keepalive = false, redirectOn401 = true } = {}) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin', keepalive };
  if (json !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (form !== undefined) {
    init.body = form; // the browser sets the multipart boundary itself
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, { code: 'network_error', message: 'Could not reach the server. Check your connection.' });
  }
  if (response.status === 401 && redirectOn401) {
    location.assign(loginUrl());
    // Never settle: callers must not show errors for a page that is being replaced.
    return new Promise(() => {});
  }
  if (response.status === 204) return null;
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

export const api = {
  get: (path, options) => request('GET', path, options),
  post: (path, json, options) => request('POST', path, { ...options, json }),
  put: (path, json, options) => request('PUT', path, { ...options, json }),
  patch: (path, json, options) => request('PATCH', path, { ...options, json }),
  delete: (path, options) => request('DELETE', path, options),
  upload(path, file) {
    const form = new FormData();
    form.append('file', file);
    return request('POST', path, { form });
  },
  sendForm: (method, path, form) => request(method, path, { form }),
};
