// Times are sent in UTC (<time datetime="...Z">... UTC</time>); shown here in the reader's own
// time zone, the UTC text kept as the tooltip. Without JavaScript the UTC text stays.
function localise(root) {
  for (const node of root.querySelectorAll("time[datetime]:not([data-local])")) {
    const moment = new Date(node.getAttribute("datetime"));
    if (Number.isNaN(moment.getTime())) continue;
    node.title = node.textContent;
    node.textContent = moment.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    node.dataset.local = "";
  }
}
localise(document);
// The live tables (htmx) swap fresh rows in: localise those too.
document.addEventListener("htmx:afterSwap", (event) => localise(event.target));
