// bnx explorer: send the controls' states, show the answer the server renders.
// No framework, no external asset: the page works without this script too (the form's
// "Show" button asks the server for the whole page).
"use strict";

(function () {
  const form = document.getElementById("instance");
  const result = document.getElementById("result");
  let asked = 0;

  const entered = document.getElementById("entered");
  const notEntered = document.querySelector("#not-entered .list");
  const find = document.getElementById("find");

  function place(box, group) {  // keep each group in the model's order of the features
    const at = Number(box.dataset.index);
    const after = Array.from(group.querySelectorAll(".feature"))
      .find((other) => Number(other.dataset.index) > at);
    group.insertBefore(box, after || null);
  }

  function regroup() {  // entered findings above, the others below; each group counted
    for (const select of form.querySelectorAll("select[data-feature]")) {
      const box = select.closest(".feature");
      const set = select.value !== "";
      box.classList.toggle("set", set);
      const group = set ? entered : notEntered;
      if (box.parentElement !== group) place(box, group);
    }
    for (const group of [entered, notEntered.closest(".group")]) {
      group.querySelector(".count").textContent = group.querySelectorAll(".feature").length;
    }
  }

  function filter() {  // show the features whose name holds the text typed
    const text = find.value.trim().toLowerCase();
    for (const box of form.querySelectorAll(".feature")) {
      const name = box.querySelector("select").dataset.feature.toLowerCase();
      box.hidden = text !== "" && !name.includes(text);
    }
  }

  function request() {
    const instance = {};
    for (const select of form.querySelectorAll("select[data-feature]")) {
      if (select.value !== "") instance[select.dataset.feature] = select.value;
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

  form.addEventListener("change", (event) => {
    if (event.target === find) return;
    regroup();
    update();
  });
  if (find) {
    find.addEventListener("input", filter);
    find.addEventListener("keydown", (event) => { if (event.key === "Enter") event.preventDefault(); });
  }
  form.addEventListener("submit", (event) => { event.preventDefault(); update(); });
  document.getElementById("clear").addEventListener("click", () => {
    for (const select of form.querySelectorAll("select[data-feature]")) select.value = "";
    regroup();
    update();
  });
  document.getElementById("download").addEventListener("click", download);
  document.getElementById("show").hidden = true;  // changes apply at once
})();
