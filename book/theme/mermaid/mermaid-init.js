// This Source Code Form is subject to the terms of the Mozilla Public
// License, v. 2.0. If a copy of the MPL was not distributed with this
// file, You can obtain one at https://mozilla.org/MPL/2.0/.

(() => {
    const darkThemes = ['ayu', 'navy', 'coal'];
    const lightThemes = ['light', 'rust'];

    const classList = document.getElementsByTagName('html')[0].classList;

    let lastThemeWasLight = true;
    for (const cssClass of classList) {
        if (darkThemes.includes(cssClass)) {
            lastThemeWasLight = false;
            break;
        }
    }

    const theme = lastThemeWasLight ? 'default' : 'dark';

    // Changed for this book: mermaid (2.6 MB, `src/mermaid/mermaid.min.js`) is fetched only by the
    // pages that hold a diagram, and drawn once it has loaded.
    const draw = () => {
        if (!document.querySelector('pre.mermaid')) return;
        const root = typeof path_to_root === 'string' ? path_to_root : '';
        const script = document.createElement('script');
        script.src = root + 'mermaid/mermaid.min.js';
        script.onload = () => {
            mermaid.initialize({ startOnLoad: false, theme });
            mermaid.run({ querySelector: 'pre.mermaid' });
        };
        document.head.appendChild(script);
    };
    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', draw);
    } else {
        draw();
    }

    // Simplest way to make mermaid re-render the diagrams in the new theme is via refreshing the page

    for (const darkTheme of darkThemes) {
        document.getElementById('mdbook-theme-' + darkTheme).addEventListener('click', () => {
            if (lastThemeWasLight) {
                window.location.reload();
            }
        });
    }

    for (const lightTheme of lightThemes) {
        document.getElementById('mdbook-theme-' + lightTheme).addEventListener('click', () => {
            if (!lastThemeWasLight) {
                window.location.reload();
            }
        });
    }
})();
