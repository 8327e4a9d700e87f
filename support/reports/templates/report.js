// Filters: the quick buttons (all, failed), the text search, the tag, the statuses. A scenario is
// shown when it passes every one; a feature when one of its scenarios is. Without script the
// report shows everything.
(function () {
  var form = document.querySelector("form.filters");
  var scenarios = Array.prototype.slice.call(document.querySelectorAll("details.scenario"));
  var failedOnly = false;
  function apply() {
    var text = form.elements.text.value.trim().toLowerCase();
    var tag = form.elements.tag.value;
    var statuses = Array.prototype.slice.call(form.querySelectorAll("input[name=status]:checked"))
      .map(function (box) { return box.value; });
    var shown = 0;
    scenarios.forEach(function (scenario) {
      var visible = (!failedOnly || scenario.dataset.failed === "true")
        && statuses.indexOf(scenario.dataset.status) !== -1
        && (!tag || scenario.dataset.tags.indexOf(" " + tag + " ") !== -1)
        && (!text || scenario.dataset.search.indexOf(text) !== -1);
      scenario.hidden = !visible;
      if (visible) { shown += 1; }
    });
    document.querySelectorAll("section.feature").forEach(function (feature) {
      feature.hidden = !feature.querySelector("details.scenario:not([hidden])");
    });
    form.elements.shown.value = shown + " of " + scenarios.length + " scenarios shown";
  }
  form.querySelectorAll("nav button").forEach(function (button) {
    button.addEventListener("click", function () {
      failedOnly = button.dataset.filter === "failed";
      form.querySelectorAll("nav button").forEach(function (other) {
        other.setAttribute("aria-pressed", String(other === button));
      });
      apply();
    });
  });
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  // A bar of the timeline or a row of the slowest opens the scenario it points at.
  document.querySelectorAll("a[href^='#scenario-']").forEach(function (link) {
    link.addEventListener("click", function () {
      var target = document.getElementById(link.getAttribute("href").slice(1));
      if (target) { target.open = true; }
    });
  });
})();
