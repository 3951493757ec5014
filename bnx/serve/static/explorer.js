// bnx explorer: send the controls' states, show the answer the server renders.
// No framework, no external asset: the page works without this script too (the form's
// "Show" button asks the server for the whole page).
"use strict";

(function () {
  const form = document.getElementById("instance");
  const result = document.getElementById("result");
  let asked = 0;

  function request() {
    const instance = {};
    for (const select of form.querySelectorAll("select[data-feature]")) {
      if (select.value !== "") instance[select.dataset.feature] = select.value;
      select.closest(".feature").classList.toggle("set", select.value !== "");
    }
    const body = { instance: instance, background: form.elements.background.value };
    if (form.elements.rival && form.elements.rival.value !== "") body.rival = form.elements.rival.value;
    return body;
  }

  function address(body) {  // the page's own address for this instance: bookmarkable
    const query = new URLSearchParams();
    for (const [feature, state] of Object.entries(body.instance)) query.append(feature, state);
    if (body.background !== "none") query.append("background", body.background);
    if (body.rival) query.append("rival", body.rival);
    const text = query.toString();
    return text ? "?" + text : location.pathname;
  }

  async function update() {
    const body = request();
    const mine = ++asked;
    result.classList.add("busy");
    try {
      const response = await fetch("explain.html", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const html = await response.text();
      if (mine !== asked) return;  // a later change is on its way
      result.innerHTML = html;
      history.replaceState(null, "", address(body));
    } catch (err) {
      if (mine === asked) result.innerHTML = '<p class="error">The server cannot be reached: ' +
        String(err).replace(/[&<>]/g, "") + "</p>";
    } finally {
      if (mine === asked) result.classList.remove("busy");
    }
  }

  async function download() {
    const response = await fetch("api/explain", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request()),
    });
    const blob = new Blob([await response.text()], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "bnx-report.json";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  form.addEventListener("change", update);
  form.addEventListener("submit", (event) => { event.preventDefault(); update(); });
  document.getElementById("clear").addEventListener("click", () => {
    for (const select of form.querySelectorAll("select[data-feature]")) select.value = "";
    update();
  });
  document.getElementById("download").addEventListener("click", download);
  document.getElementById("show").hidden = true;  // changes apply at once
})();
