// The pages' HTML helper: every interpolated value is escaped unless an `html` template made it,
// and money is written from minor units with the currency's own number of decimals.

import { describe, expect, it } from 'vitest';
import { formatInstant, formatMoney, html, raw } from '../../src/ui/html.ts';

describe('html tagged template', () => {
  it('escapes text, attributes and quotes: a product named <script> shows as text', () => {
    const name = `<script>alert("x")</script> & 'more'`;
    expect(html`<td title="${name}">${name}</td>`.value).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;</td>',
    );
  });

  it('inserts nested templates and raw markup as markup, arrays item by item, and nothing for false, null or undefined', () => {
    const items = ['a<b', html`<i>c</i>`];
    expect(html`<p>${items}${false}${null}${undefined}${0}${raw('<br>')}</p>`.value).toBe('<p>a&lt;b<i>c</i>0<br></p>');
  });
});

describe('formatMoney', () => {
  it('uses the currency\'s decimals: 2990 EUR → €29.90, 500 JPY → ¥500, 1234 KWD (3 decimals) → KWD 1.234', () => {
    expect(formatMoney(2990, 'EUR')).toBe('€29.90');
    expect(formatMoney(500, 'JPY')).toBe('¥500');
    expect(formatMoney(1234, 'KWD')).toBe('KWD\u00a01.234'); // Intl puts a no-break space after a code
  });

  it('falls back to two decimals and the code for a code Intl refuses', () => {
    expect(formatMoney(1999, 'E1')).toBe('19.99 E1');
  });
});

describe('formatInstant', () => {
  it('writes an instant in the purchase\'s time zone, naming the zone: Feb 6 00:00 UTC is Feb 6 13:00 in Auckland', () => {
    const seconds = Date.parse('2026-02-06T00:00:00Z') / 1000;
    expect(formatInstant(seconds, 'UTC')).toBe('6 Feb 2026, 00:00 (UTC)');
    expect(formatInstant(seconds, 'Pacific/Auckland')).toBe('6 Feb 2026, 13:00 (Pacific/Auckland)');
  });
});
