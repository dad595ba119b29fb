/** Support's public entry: a customer's tickets, for staff's page of that customer (admin). */
export { customerTickets } from './queries';
