/** Small HTML helpers shared by the page renderers. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Text content of an HTML fragment, for the search index (tags dropped, entities decoded). */
export function textOf(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. Using the same
 * rule keeps in-page links written for the repository working in the portal.
 */
export function githubSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Hands out unique ids within one page. */
export class SlugRegistry {
  private readonly seen = new Map<string, number>();

  unique(base: string): string {
    const slug = base.length > 0 ? base : "section";
    const count = this.seen.get(slug) ?? 0;
    this.seen.set(slug, count + 1);
    return count === 0 ? slug : `${slug}-${count}`;
  }

  /** Reserves an id chosen elsewhere (e.g. `d05`) so that later headings do not reuse it. */
  reserve(id: string): void {
    this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
  }
}
