import { type HTMLElement, type Node, NodeType } from "node-html-parser";

/*
 * Walks over a parsed page without recursion (a page can nest thousands deep) and with a bound on what it collects.
 */

/** The element and every element inside it, in document order. */
export function* elementsOf(root: HTMLElement): Generator<HTMLElement> {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType !== NodeType.ELEMENT_NODE) continue;
    yield node as HTMLElement;
    for (let index = node.childNodes.length - 1; index >= 0; index--) stack.push(node.childNodes[index] as Node);
  }
}

/**
 * The element's text, entities decoded, as `textContent` has it (scripts and styles included unless `skipTags` names
 * them), read only up to `limit` characters so a check on a wrapper of the whole page stays cheap.
 */
export function textOf(element: HTMLElement, limit: number, skipTags: ReadonlySet<string> = new Set()): string {
  let text = "";
  const stack: Node[] = [element];
  while (stack.length > 0 && text.length < limit) {
    const node = stack.pop() as Node;
    if (node.nodeType === NodeType.TEXT_NODE) {
      text += node.text;
    } else if (node.nodeType === NodeType.ELEMENT_NODE && !skipTags.has(tagOf(node as HTMLElement))) {
      for (let index = node.childNodes.length - 1; index >= 0; index--) stack.push(node.childNodes[index] as Node);
    }
  }
  return text.slice(0, limit);
}

function tagOf(element: HTMLElement): string {
  // The parser's types say string, but the document root has no tag.
  const tag: string | null = element.rawTagName;
  return tag === null ? "" : tag.toLowerCase();
}
