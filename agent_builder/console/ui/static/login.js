import { api } from './api.js';
import { byId, pageLoaded, showAlert } from './dom.js';
import { safeNext } from './safe_next.js';

const form = byId('login-form');
const errorEl = byId('login-error');

// Only paths of the console, so a crafted link can't bounce the user to another site.
function nextPath() {
  return safeNext(new URLSearchParams(location.search).get('next'));
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  showAlert(errorEl, '');
  try {
    await api.post('/console/api/login', {
      email: byId('email').value.trim(),
      password: byId('password').value,
    }, { redirectOn401: false });
    location.assign(nextPath());
  } catch (err) {
    showAlert(errorEl, err.status === 401 ? 'Invalid email or password' : err.message);
    button.disabled = false;
    byId('password').select();
  }
});

// Enabled only now: submitted natively, the form would put the password in the URL.
form.querySelector('button[type="submit"]').disabled = false;
pageLoaded();
