import { Link } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";
import {
  CreditCard,
  KeyRound,
  Mail,
  Receipt,
  ShieldCheck,
  UserRound,
} from "#app/components/ui/icons.tsx";

const CARDS: { section: string; title: string; text: string; icon: typeof UserRound }[] = [
  {
    section: "personalInfo",
    title: "Update Personal Information",
    text: "Your name and date of birth.",
    icon: UserRound,
  },
  { section: "password", title: "Change Password", text: "Choose a new password.", icon: KeyRound },
  {
    section: "payment",
    title: "Manage Payment Methods",
    text: "How paying by card works here.",
    icon: CreditCard,
  },
  {
    section: "orders",
    title: "View Order History",
    text: "Everything you have ordered.",
    icon: Receipt,
  },
  {
    section: "security",
    title: "Two-Factor Authentication",
    text: "A code from your phone at sign-in.",
    icon: ShieldCheck,
  },
  {
    section: "alerts",
    title: "My Alerts",
    text: "Titles you asked us to e-mail you about.",
    icon: Mail,
  },
];

type Appointment = { id: number | string; serviceType: string; when: string; cancelPath: string };
type Repair = { number: number; label: string; device: string; status: string; path: string };

/** A list of the account's repair appointments or repairs, each with its one action. */
function Upcoming({
  id,
  heading,
  children,
}: {
  id: string;
  heading: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mt-6">
      <h2 id={id} className="text-lg font-semibold">
        {heading}
      </h2>
      <ul className="mt-2 divide-y rounded-xl border bg-card">{children}</ul>
    </section>
  );
}

function Row({
  title,
  detail,
  children,
}: {
  title: React.ReactNode;
  detail: string;
  children: React.ReactNode;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-4">
      <span>
        <span className="block font-medium">{title}</span>
        <span className="text-sm text-muted-foreground">{detail}</span>
      </span>
      {children}
    </li>
  );
}

/** My Account's first page: upcoming appointments, repairs, and a card for each section. */
export function AccountMenu({
  email,
  appointments,
  repairs,
}: {
  email: string;
  appointments: Appointment[];
  repairs: Repair[];
}) {
  const action = buttonVariants({ variant: "outline", size: "sm" });
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">My Account</h1>
      <p className="mt-1 text-muted-foreground">{email}</p>
      {appointments.length > 0 ? (
        <Upcoming id="appointments-heading" heading="Upcoming repair appointments">
          {appointments.map((appointment) => (
            <Row key={appointment.id} title={appointment.serviceType} detail={appointment.when}>
              <Link to={appointment.cancelPath} className={action}>
                Cancel
              </Link>
            </Row>
          ))}
        </Upcoming>
      ) : null}
      {repairs.length > 0 ? (
        <Upcoming id="repairs-heading" heading="Repairs">
          {repairs.map((repair) => (
            <Row
              key={repair.number}
              title={`${repair.label}: ${repair.device}`}
              detail={repair.status}
            >
              <Link to={repair.path} className={action} aria-label={`See repair ${repair.label}`}>
                See repair
              </Link>
            </Row>
          ))}
        </Upcoming>
      ) : null}
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {CARDS.map((card) => (
          <li key={card.section}>
            <Link
              to={`?section=${card.section}`}
              className="flex h-full gap-4 rounded-xl border bg-card p-5 shadow-sm hover:border-primary"
            >
              <card.icon aria-hidden="true" className="size-7 shrink-0 text-primary" />
              <span>
                <span className="block font-semibold">{card.title}</span>
                <span className="text-sm text-muted-foreground">{card.text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
