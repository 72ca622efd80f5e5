import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The rule sets issue 71 holds every page to: WCAG 2.2 A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export interface AxeFinding {
  /** Where it was found: the page state's name and the viewport width. */
  state: string;
  rule: string;
  impact: string;
  nodes: number;
  help: string;
  /** The first few offending elements' selectors, enough to find them, and the first one's markup. */
  targets: string[];
  html: string;
  /** For colour contrast: each distinct foreground on background with its ratio. */
  colours: string[];
}

function contrastOf(data: unknown): string {
  const d = (data ?? {}) as { fgColor?: string; bgColor?: string; contrastRatio?: number };
  return `${d.fgColor} on ${d.bgColor} ${d.contrastRatio}:1`;
}

/**
 * Runs axe on the page as it is and answers its critical and serious findings, and the
 * best-practice ones of any impact (one h1, heading order, landmarks): the rules the issue names.
 */
export async function axeFindings(page: Page, state: string): Promise<AxeFinding[]> {
  const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.tags.includes('best-practice'))
    .map((v) => ({
      state,
      rule: v.id,
      impact: v.impact ?? 'unknown',
      nodes: v.nodes.length,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      html: (v.nodes[0]?.html ?? '').slice(0, 160),
      colours: v.id === 'color-contrast' ? [...new Set(v.nodes.map((n) => contrastOf(n.any[0]?.data)))] : [],
    }));
}

/** One line per finding and a count per impact, for the test's output. */
export function axeReport(findings: AxeFinding[]): string {
  const lines = findings.map((f) => `  ${f.state}: ${f.impact} ${f.rule} ×${f.nodes} (${f.help}) ${f.targets.join(' | ')} ${f.html} ${f.colours.join(', ')}`);
  const count = (impact: string) => findings.filter((f) => f.impact === impact).length;
  return [`axe: ${count('critical')} critical, ${count('serious')} serious, ${count('moderate') + count('minor')} best-practice rule hits`, ...lines].join('\n');
}
