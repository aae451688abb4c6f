import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FullScreenLoader } from './full-screen-loader';

describe('FullScreenLoader', () => {
  it('is what the page shows before the app has loaded: index.html draws the same markup in the root', () => {
    const html = readFileSync(resolve(__dirname, '../../../index.html'), 'utf8');
    const root = html.match(/<div id="root">([\s\S]*?)<\/div>\s*<script/)?.[1] ?? '';
    const markup = root
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/>\s+</g, '><')
      .trim();
    expect(markup).toBe(renderToStaticMarkup(<FullScreenLoader />));
  });
});
