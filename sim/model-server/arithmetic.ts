/**
 * Arithmetic the scripted double works out itself when the turn offers no
 * `evaluate` (a channel's turn holds only the channel's powers): numbers,
 * + - * / %, unary minus and parentheses, by the usual precedence. No
 * code runs; anything else is not arithmetic (undefined).
 */

const TOKEN = /\s*(\d+(?:\.\d+)?|[-+*/%()])/y;

const tokensOf = (text: string): string[] | undefined => {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const found = TOKEN.exec(text);
    if (found === null) return text.slice(at).trim() === '' ? tokens : undefined;
    tokens.push(found[1]!);
  }
  return tokens;
};

/** The value of `text` as arithmetic, or undefined when it is not (or divides by nothing). */
export const workOut = (text: string): number | undefined => {
  const tokens = tokensOf(text);
  if (tokens === undefined || tokens.length === 0) return undefined;
  let next = 0;
  const peek = () => tokens[next];
  const take = () => {
    const token = tokens[next];
    next += 1;
    return token;
  };
  // expression := term (('+' | '-') term)*; term := factor (('*' | '/' | '%') factor)*;
  // factor := '-' factor | number | '(' expression ')'
  const factor = (): number => {
    const token = take();
    if (token === '-') return -factor();
    if (token === '(') {
      const inner = expression();
      if (take() !== ')') return NaN;
      return inner;
    }
    return token !== undefined && /^\d/.test(token) ? Number(token) : NaN;
  };
  const term = (): number => {
    let value = factor();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const op = take();
      const right = factor();
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  };
  const expression = (): number => {
    let value = term();
    while (peek() === '+' || peek() === '-') {
      const op = take();
      const right = term();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  const value = expression();
  return next === tokens.length && Number.isFinite(value) ? value : undefined;
};
harden(workOut);
