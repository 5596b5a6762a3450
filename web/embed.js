// The lab inside an article tells the page around it how tall it is, so
// the page can size its frame and the frame never scrolls on its own:
// {type: "bloomlab-embed-height", height: N, id: "..."} (id when the link
// names the frame), at once and at every change of its height. The page
// runs it from its prerendered markup, and again when the lab renders it:
// it starts once.
(() => {
  if (window.bloomlabEmbed || window.parent === window) return;
  window.bloomlabEmbed = true;
  let told = -1;
  const tell = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === told) return;
    told = height;
    const id = document.querySelector(".embed")?.dataset.frame || undefined;
    window.parent.postMessage({ type: "bloomlab-embed-height", height, id }, "*");
  };
  new ResizeObserver(tell).observe(document.documentElement);
  tell();
})();
