// lengthwise results viewer: filters and the per-sample panel. No network, no libraries.
(function () {
  "use strict";
  var KEYS = ["model", "subset", "task", "prompt"];
  var samples = JSON.parse(document.getElementById("sample-data").textContent);

  function chosen() {
    var values = {};
    KEYS.forEach(function (key) {
      var select = document.getElementById("filter-" + key);
      values[key] = select ? select.value : "";
    });
    return values;
  }

  function matches(element, values) {
    return KEYS.every(function (key) {
      var own = element.getAttribute("data-" + key);
      return !values[key] || own === null || own === values[key];
    });
  }

  function applyFilters() {
    var values = chosen();
    var shown = 0;
    document.querySelectorAll(".filterable").forEach(function (element) {
      var visible = matches(element, values);
      element.hidden = !visible;
      if (visible && element.classList.contains("score-row")) shown += 1;
    });
    document.getElementById("shown-count").textContent = shown + " score rows shown";
  }

  function text(tag, content, className) {
    var element = document.createElement(tag);
    element.textContent = content;
    if (className) element.className = className;
    return element;
  }

  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attributes) {
    var element = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (name) { element.setAttribute(name, attributes[name]); });
    return element;
  }

  function positionMap(position) {
    var width = 600, cell = width / 10, rows = [["output", position.output], ["reference", position.reference]];
    var figure = svg("svg", { width: width + 90, height: 80, id: "position-map", role: "img" });
    rows.forEach(function (row, index) {
      var y = 8 + index * 30;
      var label = svg("text", { x: 0, y: y + 15, "font-size": 11 });
      label.textContent = row[0];
      figure.appendChild(label);
      for (var d = 0; d < 10; d += 1) {
        var share = row[1] ? row[1][d] : 0;
        figure.appendChild(svg("rect", {
          x: 80 + d * cell, y: y, width: cell - 2, height: 22,
          fill: index === 0 ? "#3d85c6" : "#6aa84f", "fill-opacity": (0.08 + 0.92 * share).toFixed(3),
          "class": "decile", "data-share": share.toFixed(3)
        }));
      }
    });
    if (position.cut) {
      figure.appendChild(svg("rect", {
        x: 80 + position.cut[0] * width, y: 4, width: Math.max(1, (position.cut[1] - position.cut[0]) * width),
        height: 64, fill: "#b85450", "fill-opacity": 0.25, "class": "cut"
      }));
    }
    if (position.depth !== null && position.depth !== undefined) {
      var x = 80 + position.depth * width;
      figure.appendChild(svg("line", { x1: x, x2: x, y1: 2, y2: 70, stroke: "#000", "stroke-width": 2, "class": "depth" }));
    }
    return figure;
  }

  function showSample(index, row) {
    var sample = samples[index];
    var panel = document.getElementById("sample-panel");
    panel.replaceChildren();
    panel.appendChild(text("h3", sample.run + " · " + sample.subset + " · " + sample.sample + " · " + sample.prompt));
    var score = sample.score === null ? "–" : sample.score.toFixed(2);
    panel.appendChild(text("p", "task " + sample.task + ", outcome " + sample.outcome + ", score " + score +
      ", context " + sample.context_chars + " characters", "panel-meta"));
    var position = sample.position;
    // A map only where there is something to place (traced sentences, a cut, a depth).
    if (position.output || position.reference || position.cut || (position.depth !== null && position.depth !== undefined)) {
      panel.appendChild(text("p", "Position map: share of sentences traced (TF-IDF) to each tenth of the context; " +
        "red: span removed by truncation; black line: answer depth.", "map-legend"));
      panel.appendChild(positionMap(position));
    }
    if (sample.question) {
      panel.appendChild(text("h4", "Question"));
      panel.appendChild(text("pre", sample.question, "panel-question"));
    }
    if (sample.facts && sample.facts.length) {
      var facts = document.createElement("ul");
      facts.className = "panel-facts";
      sample.facts.forEach(function (fact) { facts.appendChild(text("li", fact)); });
      panel.appendChild(facts);
    }
    var texts = document.createElement("div");
    texts.className = "panel-texts";
    var referenceLabel = sample.reference_label || "Reference";
    [["Output", sample.output, "panel-output"], [referenceLabel, sample.reference, "panel-reference"]].forEach(function (part) {
      var column = document.createElement("div");
      column.appendChild(text("h4", part[0]));
      column.appendChild(text("pre", part[1] || "(empty)", part[2]));
      texts.appendChild(column);
    });
    panel.appendChild(texts);
    panel.hidden = false;
    document.querySelectorAll("#sample-table tr.selected").forEach(function (r) { r.classList.remove("selected"); });
    row.classList.add("selected");
  }

  KEYS.forEach(function (key) {
    var select = document.getElementById("filter-" + key);
    if (select) select.addEventListener("change", applyFilters);
  });
  document.querySelectorAll("#sample-table tr.sample-row").forEach(function (row) {
    row.addEventListener("click", function () { showSample(Number(row.getAttribute("data-index")), row); });
  });
  applyFilters();
})();
