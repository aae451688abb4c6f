// Applies the theme kept in localStorage ('theme': 'light' | 'dark', dark by default) before React loads.
(() => {
  var theme = 'dark';
  try {
    if (window.localStorage.getItem('theme') === 'light') theme = 'light';
  } catch (_error) {
    // Storage blocked: keep the default.
  }
  var root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
})();
