import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'vite';
import { expect, it } from 'vitest';

/**
 * No client component is over 200 lines (issue 44): a component past that does several things
 * and is split by what it shows. A component is a function named in PascalCase, or a PascalCase
 * constant holding one (`forwardRef` and `memo` included), counted from its first line to its
 * last.
 */
const MAX_LINES = 200;

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const isNode = (value: unknown): value is Node =>
  !!value && typeof value === 'object' && typeof (value as Node).type === 'string';
const isComponentName = (name: unknown) => typeof name === 'string' && /^[A-Z]/.test(name);
const isFunction = (node: unknown) =>
  isNode(node) && /^(ArrowFunctionExpression|FunctionExpression)$/.test(node.type);

/** The components of one file: name, first line and length in lines. */
function componentsOf(file: string) {
  const text = readFileSync(file, 'utf8');
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  const found: { name: string; line: number; lines: number }[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isNode(node)) return;
    const id = node.id as { name?: string } | null | undefined;
    const init = node.init as Node | null | undefined;
    const fn =
      node.type === 'FunctionDeclaration'
        ? node
        : node.type === 'VariableDeclarator' &&
            (isFunction(init) ||
              (init?.type === 'CallExpression' && (init.arguments as unknown[]).some(isFunction)))
          ? init
          : null;
    if (fn && isComponentName(id?.name)) {
      const line = lineOf(fn.start);
      found.push({ name: id!.name!, line, lines: lineOf(fn.end) - line + 1 });
    }
    for (const value of Object.values(node)) if (typeof value === 'object') visit(value);
  };
  visit(parseSync(file, text).program);
  return found;
}

const tsxFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(full);
    return entry.name.endsWith('.tsx') ? [full] : [];
  });

it(`has no component over ${MAX_LINES} lines`, () => {
  const components = tsxFiles(import.meta.dirname).flatMap((file) =>
    componentsOf(file).map((c) => ({ ...c, file: path.relative(import.meta.dirname, file) })),
  );
  // The scan sees the components it should: the upload page's, say.
  expect(components).toContainEqual(
    expect.objectContaining({ file: 'features/upload/upload-page.tsx', name: 'UploadPage' }),
  );
  const over = components
    .filter((c) => c.lines > MAX_LINES)
    .map((c) => `${c.file}:${c.line} ${c.name} (${c.lines} lines)`);
  expect(over).toEqual([]);
});
