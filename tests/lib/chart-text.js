// SPDX-License-Identifier: Apache-2.0
// chart-text.js - injected into a copy of a report page by
// tests/report-charts.bats: measures, as the browser lays the page out, the
// text of every inline chart, and writes what it found into a
// PRE element (id chart-text) that `chromium --dump-dom` carries out.
//
// First the page:       page SIDEWAYS HEIGHT (how far it scrolls sideways, its height, folds open)
// one line per chart:   chart ID WIDTH VIEWBOX NTEXTS MINPX
// one per small text:   small ID PX "TEXT"
// one per overlap:      overlap ID "TEXT1" "TEXT2" PX
// one per text cut:     clipped ID "TEXT" PX (how far it runs out of its chart)
// A text's rendered size is its font size times the scale from its user
// units to the page's pixels (the chart's displayed width over its viewBox
// width, and any transform between); two texts overlap when their boxes
// (rotated as drawn) share more than a pixel each way.
(function () {
  'use strict';
  var out = [];
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });

  // The four corners of el's box in page pixels (a rotated label's box is rotated).
  function corners(el) {
    var b = el.getBBox(), m = el.getScreenCTM(), svg = el.ownerSVGElement, p = svg.createSVGPoint();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]].map(
      function (c) { p.x = c[0]; p.y = c[1]; var q = p.matrixTransform(m); return [q.x, q.y]; });
  }

  // How far two convex quadrilaterals overlap along the axis that separates them
  // best (separating axes); <= 0 when apart.
  function overlap(a, b) {
    var least = Infinity;
    [a, b].forEach(function (poly) {
      for (var i = 0; i < 4; i++) {
        var p = poly[i], q = poly[(i + 1) % 4], nx = q[1] - p[1], ny = p[0] - q[0];
        var len = Math.hypot(nx, ny);
        if (len === 0) continue;
        nx /= len; ny /= len;
        var amin = Infinity, amax = -Infinity, bmin = Infinity, bmax = -Infinity;
        a.forEach(function (c) { var d = c[0] * nx + c[1] * ny; amin = Math.min(amin, d); amax = Math.max(amax, d); });
        b.forEach(function (c) { var d = c[0] * nx + c[1] * ny; bmin = Math.min(bmin, d); bmax = Math.max(bmax, d); });
        least = Math.min(least, Math.min(amax, bmax) - Math.max(amin, bmin));
      }
    });
    return least;
  }

  function quote(s) { return '"' + s.replace(/\s+/g, ' ').replace(/"/g, "'") + '"'; }

  document.querySelectorAll('figure > svg, figure svg').forEach(function (svg, n) {
    if (svg.ownerSVGElement) return; // an svg inside a chart's svg is part of it
    var fig = svg.closest('figure'), id = (fig && fig.id) || 'svg' + n;
    var vb = svg.viewBox.baseVal, shown = svg.getBoundingClientRect().width;
    var texts = [], min = Infinity, lines = [];
    svg.querySelectorAll('text').forEach(function (t) {
      var s = t.textContent;
      if (!s.trim()) return;
      var m = t.getScreenCTM();
      var px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      min = Math.min(min, px);
      if (px < 9) lines.push('small ' + id + ' ' + px.toFixed(2) + ' ' + quote(s));
      var box = corners(t), r = svg.getBoundingClientRect(), out_px = 0;
      box.forEach(function (c) {
        out_px = Math.max(out_px, r.left - c[0], c[0] - r.right, r.top - c[1], c[1] - r.bottom);
      });
      if (out_px > 1) lines.push('clipped ' + id + ' ' + quote(s) + ' ' + out_px.toFixed(1));
      texts.push({ s: s, box: box });
    });
    for (var i = 0; i < texts.length; i++)
      for (var j = i + 1; j < texts.length; j++) {
        var o = overlap(texts[i].box, texts[j].box);
        if (o > 1) lines.push('overlap ' + id + ' ' + quote(texts[i].s) + ' ' + quote(texts[j].s) + ' ' + o.toFixed(1));
      }
    out.push('chart ' + id + ' ' + shown.toFixed(0) + ' ' + (vb ? vb.width : 0) + ' ' + texts.length + ' ' +
      (texts.length ? min.toFixed(2) : 'none'));
    out.push.apply(out, lines);
  });
  var de = document.documentElement;
  out.unshift('page ' + (de.scrollWidth - de.clientWidth) + ' ' + de.scrollHeight);
  var pre = document.createElement('pre');
  pre.id = 'chart-text';
  pre.textContent = out.join('\n');
  document.body.appendChild(pre);
})();
