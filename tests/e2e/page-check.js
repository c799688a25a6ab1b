/* Measures a page ubtune wrote as Chromium lays it out, for
 * tests/e2e/test-pages.sh: what sticks out of the page or hides behind a
 * scrollbar, and per chart its texts, the ones that overlap or leave the
 * chart, and its marked parts (class="band", "event", ...). The result goes
 * into a pre element of id ubtune-check, as JSON. */
(function () {
	var doc = document.documentElement, W = doc.clientWidth;
	function name(e) {
		var s = e.tagName.toLowerCase();
		if (e.id)
			s += "#" + e.id;
		if (e.getAttribute("class"))
			s += "." + e.getAttribute("class").replace(/ /g, ".");
		return s + " \"" + (e.textContent || "").trim().slice(0, 40) + "\"";
	}
	function box(e) {
		var r = e.getBoundingClientRect();
		return { l: r.left, r: r.right, t: r.top, b: r.bottom };
	}
	function overlap(a, b) {
		var w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
		return w > 1 && h > 1;
	}
	var out = { width: W, height: doc.scrollHeight, page_scroll_width: doc.scrollWidth, wide: [], scrolled: [],
		    headers: [], charts: [] };
	var all = document.body.querySelectorAll("*");
	for (var i = 0; i < all.length; i++) {
		var e = all[i], b = box(e);
		if (e.closest("svg") && e.tagName.toLowerCase() !== "svg")
			continue;
		if (b.r > W + 0.5)
			out.wide.push(name(e) + " ends at " + Math.round(b.r) + " px");
		if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible")
			out.scrolled.push(name(e) + " holds " + e.scrollWidth + " px in " + e.clientWidth);
	}
	var th = document.querySelectorAll("th");
	for (i = 0; i < th.length; i++)
		out.headers.push(th[i].textContent);
	var svgs = document.querySelectorAll("svg");
	for (i = 0; i < svgs.length; i++) {
		var svg = svgs[i], sb = box(svg), c = { title: "", texts: [], overlaps: [], outside: [], parts: {} };
		var title = svg.querySelector("title");
		c.title = title ? title.textContent : "";
		var texts = svg.querySelectorAll("text"), boxes = [];
		for (var k = 0; k < texts.length; k++) {
			var t = texts[k], tb = box(t);
			c.texts.push(t.textContent);
			boxes.push(tb);
			if (tb.l < sb.l - 0.5 || tb.r > sb.r + 0.5 || tb.t < sb.t - 0.5 || tb.b > sb.b + 0.5)
				c.outside.push(t.textContent);
			for (var j = 0; j < k; j++)
				if (overlap(tb, boxes[j]))
					c.overlaps.push([texts[j].textContent, t.textContent]);
		}
		/* the text of a marked part may not lie on a line marked "axis" */
		var axes = svg.querySelectorAll(".axis");
		for (k = 0; k < texts.length; k++)
			for (j = 0; j < axes.length; j++)
				if (overlap(boxes[k], box(axes[j])))
					c.overlaps.push([texts[k].textContent, "axis line"]);
		var marked = svg.querySelectorAll("[class]");
		for (k = 0; k < marked.length; k++) {
			var cls = marked[k].getAttribute("class"), tip = marked[k].querySelector("title");
			(c.parts[cls] = c.parts[cls] || []).push(tip ? tip.textContent : marked[k].textContent);
		}
		out.charts.push(c);
	}
	var pre = document.createElement("pre");
	pre.id = "ubtune-check";
	pre.textContent = JSON.stringify(out);
	document.body.appendChild(pre);
})();
