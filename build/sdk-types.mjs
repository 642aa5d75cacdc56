// The declarations of the `@switchboard/sdk` package, which must import nothing of the server or of zod: tsc writes
// those of sdk/'s modules, and sdk/contract.ts, the one module that reads types off the server's route table and
// schemas, is written out instead as the plain types it comes to (each object, union and literal spelt out, as the
// compiler resolves them), so that the package's types are the repository's SDK's, without their sources.
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

const FORMAT_HOST = { ...ts.sys, getCanonicalFileName: (file) => file, getNewLine: () => '\n' };
const ENTRIES = ['sdk/index.ts', 'sdk/node.ts'];
const CONTRACT = 'sdk/contract.ts';

/** Deeper than any answer of the API: a type that nests further is taken to refer to itself. */
const MAX_DEPTH = 40;

/**
 * The declarations of sdk/, by path relative to sdk/ (`index.d.ts`, `chat/resources.d.ts` …), and the files the
 * compiler read (relative to root).
 * @param {string} root the repository
 * @returns {{ declarations: Map<string, string>, inputs: string[] }}
 */
export function sdkDeclarations(root) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsc could not read tsconfig.json');
  const outDir = join(root, 'sdk-declarations');
  const program = ts.createProgram({
    rootNames: ENTRIES.map((entry) => join(root, entry)),
    options: {
      ...config.options,
      declaration: true,
      emitDeclarationOnly: true,
      noEmit: false,
      incremental: false,
      noCheck: true,
      outDir,
      rootDir: root,
    },
  });
  // Only sdk/'s own files are written, and not type-checked here (noCheck): `npm test` checks them all.
  const declarations = new Map();
  const sdkFolder = join(root, 'sdk');
  for (const source of program.getSourceFiles()) {
    const path = relative(sdkFolder, source.fileName);
    if (path.startsWith('..') || source.isDeclarationFile) continue;
    const { diagnostics } = program.emit(source, (_, text) => {
      declarations.set(path.split(sep).join('/').replace(/\.ts$/, '.d.ts'), text);
    });
    if (diagnostics.length > 0) throw new Error(ts.formatDiagnostics(diagnostics, FORMAT_HOST));
  }
  declarations.set('contract.d.ts', writeContract(program, join(root, CONTRACT)));
  for (const [path, text] of declarations) {
    for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g)) {
      const target = posix.join(posix.dirname(path), specifier);
      if (!specifier.startsWith('.') || target.startsWith('..')) {
        throw new Error(`The declarations of sdk/${path} import ${specifier}: the package's types must stand alone`);
      }
    }
  }
  const inputs = program
    .getSourceFiles()
    .map((file) => relative(root, file.fileName))
    .filter((file) => !file.startsWith('..') && !file.startsWith('node_modules'));
  return { declarations, inputs };
}

/**
 * sdk/contract.ts's exported types, each spelt out, with their comments.
 * @param {ts.Program} program
 * @param {string} file
 */
function writeContract(program, file) {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  const header = [
    "// Written by build/sdk-types.mjs from sdk/contract.ts: the types the SDK reads off the server's route table and",
    '// schemas, as plain types.',
  ];
  const parts = [header.join('\n')];
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const name = statement.name.text;
    const comment = ts
      .getLeadingCommentRanges(source.text, statement.pos)
      ?.map((range) => source.text.slice(range.pos, range.end))
      .join('\n');
    const type = checker.getTypeAtLocation(statement.name);
    const text = new TypePrinter(checker, program).print(type, 0, '');
    parts.push(`${comment ? `${comment}\n` : ''}export type ${name} = ${text};`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** Spells a type out: no alias, no import, only objects, arrays, tuples, unions, intersections and literals. */
class TypePrinter {
  /** @param {ts.TypeChecker} checker @param {ts.Program} program */
  constructor(checker, program) {
    this.checker = checker;
    this.program = program;
  }

  /**
   * @param {ts.Type} type
   * @param {number} depth how deep in the type, against one that refers to itself
   * @param {string} indent of the lines of its objects' members
   * @returns {string}
   */
  print(type, depth, indent) {
    if (depth > MAX_DEPTH) throw new Error(`A type of sdk/contract.ts nests deeper than ${MAX_DEPTH}`);
    const { checker } = this;
    const flags = type.flags;
    if (flags & ts.TypeFlags.Any) return 'any';
    if (flags & ts.TypeFlags.Unknown) return 'unknown';
    if (flags & ts.TypeFlags.String) return 'string';
    if (flags & ts.TypeFlags.Number) return 'number';
    if (flags & ts.TypeFlags.BigInt) return 'bigint';
    if (flags & ts.TypeFlags.Undefined) return 'undefined';
    if (flags & ts.TypeFlags.Null) return 'null';
    if (flags & ts.TypeFlags.Void) return 'void';
    if (flags & ts.TypeFlags.Never) return 'never';
    if (flags & ts.TypeFlags.ESSymbol) return 'symbol';
    if (flags & ts.TypeFlags.StringLiteral) return JSON.stringify(/** @type {ts.StringLiteralType} */ (type).value);
    if (flags & ts.TypeFlags.NumberLiteral) return String(/** @type {ts.NumberLiteralType} */ (type).value);
    if (flags & (ts.TypeFlags.BooleanLiteral | ts.TypeFlags.TemplateLiteral)) return checker.typeToString(type);
    if (flags & ts.TypeFlags.Union) return this.printUnion(/** @type {ts.UnionType} */ (type).types, depth, indent);
    if (flags & ts.TypeFlags.Intersection) {
      const members = /** @type {ts.IntersectionType} */ (type).types;
      return members.map((member) => this.grouped(member, depth, indent)).join(' & ');
    }
    if (flags & ts.TypeFlags.Object) return this.printObject(/** @type {ts.ObjectType} */ (type), depth, indent);
    throw new Error(`sdk/contract.ts: cannot spell out the type ${checker.typeToString(type)}`);
  }

  /** A union of `members`, with `true | false` as `boolean`. @param {readonly ts.Type[]} members */
  printUnion(members, depth, indent) {
    const isBoolean = (member) => member.flags & ts.TypeFlags.BooleanLiteral;
    const both = members.filter(isBoolean).length === 2;
    const printed = [];
    for (const member of members) {
      if (both && isBoolean(member)) {
        if (!printed.includes('boolean')) printed.push('boolean');
      } else printed.push(this.grouped(member, depth, indent));
    }
    return printed.join(' | ');
  }

  /** A member of a union or intersection, in parentheses where it needs them. */
  grouped(type, depth, indent) {
    const text = this.print(type, depth + 1, indent);
    return type.flags & (ts.TypeFlags.Union | ts.TypeFlags.Intersection) ? `(${text})` : text;
  }

  /** @param {ts.ObjectType} type @param {number} depth @param {string} indent */
  printObject(type, depth, indent) {
    const { checker } = this;
    if (checker.isTupleType(type)) {
      const target = /** @type {ts.TupleType} */ (/** @type {ts.TypeReference} */ (type).target);
      const elements = checker.getTypeArguments(/** @type {ts.TypeReference} */ (type)).map((element, i) => {
        const flag = target.elementFlags[i];
        const text = this.print(element, depth + 1, indent);
        if (flag & ts.ElementFlags.Rest) return `...Array<${text}>`;
        return flag & ts.ElementFlags.Optional ? `${text}?` : text;
      });
      return `${target.readonly ? 'readonly ' : ''}[${elements.join(', ')}]`;
    }
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(/** @type {ts.TypeReference} */ (type));
      const readonly = type.symbol?.name === 'ReadonlyArray';
      return `${readonly ? 'ReadonlyArray' : 'Array'}<${this.print(element, depth + 1, indent)}>`;
    }
    // A type of the standard library (Date, Record<K, V> …) stands for itself, with its arguments spelt out.
    const named = type.aliasSymbol ?? type.symbol;
    const declaration = named?.declarations?.[0];
    if (declaration && this.program.isSourceFileDefaultLibrary(declaration.getSourceFile())) {
      const typeArguments = type.aliasSymbol
        ? (type.aliasTypeArguments ?? [])
        : /** @type {ts.ObjectType} */ (type).objectFlags & ts.ObjectFlags.Reference
          ? checker.getTypeArguments(/** @type {ts.TypeReference} */ (type))
          : [];
      const printed = typeArguments.map((argument) => this.print(argument, depth + 1, indent));
      return printed.length > 0 ? `${named.name}<${printed.join(', ')}>` : named.name;
    }
    if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) {
      throw new Error(`sdk/contract.ts: a function type, ${checker.typeToString(type)}, has no place in the contract`);
    }
    const inner = `${indent}  `;
    const members = [];
    for (const info of checker.getIndexInfosOfType(type)) {
      const key = this.print(info.keyType, depth + 1, indent);
      members.push(`${info.isReadonly ? 'readonly ' : ''}[key: ${key}]: ${this.print(info.type, depth + 1, inner)}`);
    }
    for (const property of checker.getPropertiesOfType(type)) {
      const optional = property.flags & ts.SymbolFlags.Optional;
      const propertyType = checker.getTypeOfSymbol(property);
      // An optional property's type says `| undefined`, which its `?` already says.
      const text =
        optional && propertyType.flags & ts.TypeFlags.Union
          ? this.printUnion(
              /** @type {ts.UnionType} */ (propertyType).types.filter((m) => !(m.flags & ts.TypeFlags.Undefined)),
              depth + 1,
              inner,
            )
          : this.print(propertyType, depth + 1, inner);
      const name = /^[A-Za-z_$][\w$]*$/.test(property.name) ? property.name : JSON.stringify(property.name);
      members.push(`${name}${optional ? '?' : ''}: ${text}`);
    }
    return members.length === 0 ? '{}' : `{\n${members.map((member) => `${inner}${member};\n`).join('')}${indent}}`;
  }
}
