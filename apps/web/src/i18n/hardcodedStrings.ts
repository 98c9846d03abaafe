import ts from 'typescript';

/** Props whose string value a user reads or hears. */
const VISIBLE_PROPS = new Set([
  'label',
  'placeholder',
  'title',
  'aria-label',
  'alt',
  'description',
  'message',
  'confirmLabel',
  'cancelLabel',
]);

/** Text with a letter or a Japanese character; punctuation, digits and symbols alone are fine. */
const READABLE = /[\p{L}]/u;

export interface THardcodedString {
  line: number;
  text: string;
}

/**
 * User-visible strings written straight into a component: JSX text, and string literals given to
 * props like label or placeholder. Such strings belong in ja.json and en.json.
 */
export function findHardcodedStrings(source: string, fileName = 'file.tsx'): THardcodedString[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: THardcodedString[] = [];
  const report = (node: ts.Node, text: string) =>
    found.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: text.trim() });

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && READABLE.test(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && VISIBLE_PROPS.has(node.name.getText(file)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init) && READABLE.test(init.text)) report(node, init.text);
      if (
        ts.isJsxExpression(init) &&
        init.expression &&
        ts.isStringLiteral(init.expression) &&
        READABLE.test(init.expression.text)
      ) {
        report(node, init.expression.text);
      }
    }
    if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      const expression = node.expression;
      if (
        expression &&
        (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) &&
        READABLE.test(expression.text)
      ) {
        report(node, expression.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
