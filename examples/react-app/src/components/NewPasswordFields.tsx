// A new password typed twice, as sign-up and password reset ask for it.
import { Field } from "./ui.js";

export const PASSWORDS_DIFFER = "The two passwords differ.";

export function NewPasswordFields(props: {
  readonly label: string;
  readonly repeatLabel: string;
  readonly password: string;
  readonly repeat: string;
  readonly onPassword: (value: string) => void;
  readonly onRepeat: (value: string) => void;
}) {
  return (
    <>
      <Field
        label={props.label}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        value={props.password}
        onChange={(e) => props.onPassword(e.target.value)}
      />
      <Field
        label={props.repeatLabel}
        name="repeat"
        type="password"
        autoComplete="new-password"
        required
        value={props.repeat}
        onChange={(e) => props.onRepeat(e.target.value)}
      />
    </>
  );
}
