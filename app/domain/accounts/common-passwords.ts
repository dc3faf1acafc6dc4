/**
 * Passwords that appear at the top of every breach list. Checked on the server when a password
 * is chosen; the check also refuses one character repeated and the shop's own name.
 */
const COMMON = new Set(
  `123456 123456789 12345678 password qwerty123 qwerty1 111111 1234567890 1234567 12345
  000000 qwerty abc123 password1 iloveyou 1q2w3e4r 123123 dragon monkey 654321 555555 666666
  121212 football baseball 987654321 sunshine princess welcome admin admin123 letmein
  passw0rd password123 qwertyuiop 1qaz2wsx zaq12wsx trustno1 starwars superman batman
  shadow master michael jennifer jordan23 hunter2 killer freedom whatever qazwsx 123qwe
  asdfghjk asdfasdf asdf1234 zxcvbnm zxcvbnm1 abcd1234 abcdefgh 11111111 00000000 12341234
  88888888 87654321 123456789a a1234567 password! p@ssw0rd p@ssword welcome1 welcome123
  changeme secret123 iloveyou1 princess1 football1 baseball1 charlie1 mustang1 access14
  login123 computer internet samsung google1 linkedin facebook instagram 1234qwer
  qwer1234 q1w2e3r4 1q2w3e4r5t 12qwaszx texas123 cowboys1 arlington movies123 netflix1
  blockbuster reelandrepair`.split(/\s+/),
);

/** Why a password may not be used, or undefined when it may. */
export function weakPasswordReason(password: string, context: { email?: string } = {}) {
  const lowered = password.toLowerCase();
  if (COMMON.has(lowered)) return "This password is one of the most common ones. Choose another.";
  if (/^(.)\1+$/.test(password))
    return "A password of one repeated character is too easy to guess.";
  const local = context.email?.split("@")[0]?.toLowerCase();
  if (local && local.length >= 4 && lowered.includes(local)) {
    return "Your password must not contain your e-mail address.";
  }
  return undefined;
}
