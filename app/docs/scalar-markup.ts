/**
 * Repairs, in the browser, the parts of the markup Scalar 0.8.70 (@scalar/api-reference 1.46) renders that axe
 * finds serious (issue 52 item 5) and that no option of Scalar's configuration changes. Each repair names its axe
 * rule. Scalar's Vue components re-render these elements as the reader scrolls and clicks, so a MutationObserver
 * repairs every element Scalar adds or whose watched attribute it changes, at the end of the task that changed it
 * (before anything else, axe included, can read the DOM). Nothing here moves, removes or adds an element, and no
 * element loses a key handler or its place in the tab order: Scalar's keyboard use stays as it was.
 *
 * Upstream (scalar/scalar's main branch as last read) has fixed only the copy buttons' name; the sidebar's
 * aria-selected, the search button's role, the client tabs' "More" button and the endpoint lists are unchanged.
 */

/** The roles that support aria-selected (WAI-ARIA 1.2); an explicit role on Scalar's elements, or an <option>. */
const rolesWithSelected = new Set(["gridcell", "option", "row", "tab", "columnheader", "rowheader", "treeitem"]);
/** Marks the endpoint lists given a tab stop here, so it is taken back only from them when they stop scrolling. */
const focusableMark = "data-scroll-focusable";

function supportsSelected(element: Element): boolean {
  const role = element.getAttribute("role");
  return role ? rolesWithSelected.has(role) : element.tagName === "OPTION";
}

/** A region that can scroll (its content wider or taller than its box, with overflow it can scroll). */
function scrolls(element: Element): boolean {
  return element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
}

/**
 * scrollable-region-focusable: the cards that list a tag's endpoints scroll (sideways on a long path, down on a
 * long list) and hold no focusable element (their entries are <a> without href), so a keyboard cannot scroll
 * them. Each one that scrolls gets a tab stop (it is already named, "Payment orders endpoints"); one that does
 * not scroll gets none, so the tab order gains no stop that does nothing.
 */
function repairScrollable(list: Element) {
  if (scrolls(list)) {
    if (!list.hasAttribute("tabindex")) {
      list.setAttribute("tabindex", "0");
      list.setAttribute(focusableMark, "");
    }
  } else if (list.hasAttribute(focusableMark)) {
    list.removeAttribute("tabindex");
    list.removeAttribute(focusableMark);
  }
}

function repairElement(element: Element, watchSize: (list: Element) => void) {
  // button-name: the sidebar's search button has role="search" (a landmark, whose name never comes from its
  // content), so its text "Open Search" names nothing. Without the role it is the button it is, named by that text.
  if (element.tagName === "BUTTON" && element.getAttribute("role") === "search") element.removeAttribute("role");

  // button-name: a code block's copy button shows its label ("Copy") only while the block is hovered or focused
  // (display: none otherwise, its screen-reader copy included). Scalar's newer releases name it so.
  if (element.tagName === "BUTTON" && element.classList.contains("scalar-code-copy") && !element.hasAttribute("aria-label")) {
    element.setAttribute("aria-label", "Copy code sample");
  }

  // aria-required-children: the client libraries' tablist holds, after its tabs (Shell, Ruby, Node.js, …), the
  // "More" button that opens the list of every other client; a tablist may own only tabs. It is one: choosing a
  // client there selects it as the tabs do (Scalar marks it active and shows that client's samples), so it is a
  // tab. Which tab is selected is Scalar's client-libraries__active class on each: the tabs' own aria-selected
  // (Headless UI's index) says "Shell" while the selected client is one under "More", such as our default, Node.js
  // fetch. Its popup and the tabs' key handling (arrows, Enter, the roving tabindex) are unchanged.
  if (element.tagName === "BUTTON" && element.classList.contains("client-libraries") && element.closest('[role="tablist"]')) {
    if (element.getAttribute("role") !== "tab") element.setAttribute("role", "tab");
    const selected = String(element.classList.contains("client-libraries__active"));
    if (element.getAttribute("aria-selected") !== selected) element.setAttribute("aria-selected", selected);
  }

  // aria-allowed-attr: the sidebar's entries (<button> and <a>) carry aria-selected, which neither role allows;
  // a screen reader ignores it there. The entry for the section in view is the current one: aria-current says so.
  if (element.hasAttribute("aria-selected") && !supportsSelected(element)) {
    if (element.getAttribute("aria-selected") === "true") element.setAttribute("aria-current", "true");
    else element.removeAttribute("aria-current");
    element.removeAttribute("aria-selected");
  }

  if (element.tagName === "UL" && element.classList.contains("endpoints")) {
    repairScrollable(element);
    watchSize(element);
  }
}

const selector = 'button[role="search"], button.scalar-code-copy, button.client-libraries, [aria-selected], ul.endpoints';

/** Repairs what is in `root` now and whatever Scalar renders into it later; returns the function that stops. */
export function repairScalarMarkup(root: HTMLElement): () => void {
  // An endpoint list starts or stops scrolling when its box or its content changes size (the window, the layout).
  const sizes = new ResizeObserver((entries) => {
    for (const entry of entries) repairScrollable(entry.target);
  });
  const watched = new WeakSet<Element>();
  const watchSize = (list: Element) => {
    if (watched.has(list)) return;
    watched.add(list);
    sizes.observe(list);
  };
  const repairTree = (node: Node) => {
    if (!(node instanceof Element)) return;
    if (node.matches(selector)) repairElement(node, watchSize);
    for (const element of node.querySelectorAll(selector)) repairElement(element, watchSize);
  };

  repairTree(root);
  const mutations = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") {
        if (record.target instanceof Element) repairElement(record.target, watchSize);
      } else {
        record.addedNodes.forEach(repairTree);
        // An entry added to or removed from an endpoint list changes whether it scrolls.
        const list = record.target instanceof Element ? record.target.closest("ul.endpoints") : null;
        if (list) repairScrollable(list);
      }
    }
  });
  // class: the client tabs' selected state; role and aria-selected: what Scalar sets again when it re-renders.
  mutations.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-selected", "class", "role"] });
  return () => {
    mutations.disconnect();
    sizes.disconnect();
  };
}
